// Tasks (experimental in 2025-11-25): a request answered at once with a task handle, its result
// fetched later by polling. Shown here as types only, so a reader sees their shape:
// mcp-wire does not offer tasks. It declares no `tasks` capability, so `tasks/*` requests get
// -32601, and a `task` param on an ordinary request is ignored and the request served as usual.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
// Everything in this file is legacy only: 2026-07-28 removed tasks from the core protocol (no
// `tasks` capability, `task` param, `Tool.execution` or related-task key) and moved them, redesigned,
// to the `io.modelcontextprotocol/tasks` extension, negotiated in `capabilities.extensions`
// (polling `tasks/get` plus `tasks/update`; no `tasks/result` or `tasks/list`).
// Extension: https://modelcontextprotocol.io/extensions/tasks/overview

import type { NotificationParams, PaginatedRequestParams, PaginatedResult, RequestParams, Result } from "./base.js";

/**
 * Where a task stands. It starts `working`; `working` and `input_required` may move to each other
 * or to one of the three final states (`completed`, `failed`, `cancelled`), which never change again.
 * Spec (tasks#task-status-lifecycle).
 */
export type TaskStatus =
  | "working" // the request is being handled
  | "input_required" // the receiver waits on the requestor (an elicitation, a sampling request): call tasks/result
  | "completed" // finished; tasks/result returns its result
  | "failed" // finished without success, including a tool result with isError: true
  | "cancelled"; // stopped by tasks/cancel

/** The `task` param that asks for a request to run as a task. Spec (tasks#task-parameters). */
export interface TaskMetadata {
  /** How long, in milliseconds from creation, the requestor would like the task kept; the receiver may choose otherwise. */
  ttl?: number;
}

/**
 * Params of a request that may run as a task: in 2025-11-25 `tools/call`, `sampling/createMessage`
 * and `elicitation/create`. mcp-wire's own params types for those leave `task` out.
 */
export interface TaskAugmentedRequestParams extends RequestParams {
  /** Present: run as a task, answer with a CreateTaskResult now. Only if the receiver declared it for this method. */
  task?: TaskMetadata;
}

/**
 * The value under `_meta["io.modelcontextprotocol/related-task"]` of every request, notification and
 * result that belongs to a task (an elicitation a task's tool call needs, the tasks/result answer).
 * Spec (tasks#related-task-metadata).
 */
export interface RelatedTaskMetadata {
  /** The task the message belongs to. */
  taskId: string;
}

/** A task as its receiver reports it. Spec (tasks#task). */
export interface Task {
  /** Chosen by the receiver, unique among its tasks; always a string. */
  taskId: string;
  /** Where the task stands now. */
  status: TaskStatus;
  /** Words for a person about the status: why it failed, what it did, why it was cancelled. */
  statusMessage?: string;
  /** When the task was created, an ISO 8601 timestamp. */
  createdAt: string;
  /** When the task last changed, an ISO 8601 timestamp. */
  lastUpdatedAt: string;
  /** How long, in milliseconds from creation, the receiver keeps it; `null` for no limit. */
  ttl: number | null;
  /** How often, in milliseconds, the receiver suggests polling tasks/get. */
  pollInterval?: number;
}

/** The immediate answer to a request that runs as a task, instead of its usual result. Spec (tasks#creating-tasks). */
export interface CreateTaskResult extends Result {
  /** The new task, `working` at first. */
  task: Task;
}

/**
 * Params of `tasks/get`, `tasks/result` and `tasks/cancel`: which task. The spec gives them no
 * `_meta`; `taskId` alone names the task. Spec (tasks#associating-task-related-messages).
 */
export interface TaskIdParams {
  /** The task meant; an unknown or expired id gets -32602. */
  taskId: string;
}

/** Params of `tasks/get`: poll a task's status. */
export type GetTaskRequestParams = TaskIdParams;

/** The result of `tasks/get`: the task as it stands. */
export type GetTaskResult = Result & Task;

/** Params of `tasks/result`: wait for a task to finish and fetch what its request would have returned. */
export type GetTaskPayloadRequestParams = TaskIdParams;

/**
 * The result of `tasks/result`: exactly the result the original request would have had (a
 * CallToolResult for a tools/call task), or its JSON-RPC error. Spec (tasks#result-retrieval).
 */
export interface GetTaskPayloadResult extends Result {
  [key: string]: unknown;
}

/** Params of `tasks/list`: a page of the requestor's tasks. Spec (tasks#listing-tasks). */
export type ListTasksRequestParams = PaginatedRequestParams;

/** The result of `tasks/list`. */
export interface ListTasksResult extends PaginatedResult {
  /** The tasks on this page. */
  tasks: Task[];
}

/** Params of `tasks/cancel`: a task in a final state gets -32602. Spec (tasks#cancelling-tasks). */
export type CancelTaskRequestParams = TaskIdParams;

/** The result of `tasks/cancel`: the task, now `cancelled`. */
export type CancelTaskResult = Result & Task;

/** Params of `notifications/tasks/status`: a task changed. Optional for the receiver to send. Spec (tasks#task-status-notification). */
export type TaskStatusNotificationParams = NotificationParams & Task;

/** How a tool may be called with tasks: `Tool.execution` in `tools/list`. Spec (tasks#tool-level-negotiation). */
export interface ToolExecution {
  /** `"forbidden"` (the default), `"optional"` or `"required"`; read only if the server declared `tasks.requests.tools.call`. */
  taskSupport?: "forbidden" | "optional" | "required";
}

/** Task operations a side may offer; each key present means offered. Spec (tasks#capabilities). */
interface TasksCapabilityBase {
  /** Offers `tasks/list`. */
  list?: object;
  /** Offers `tasks/cancel`. */
  cancel?: object;
}

/** `capabilities.tasks` of a client: which of the server's requests may run as tasks on the client. */
export interface ClientTasksCapability extends TasksCapabilityBase {
  /** The full list: a request not named here cannot run as a task. */
  requests?: {
    sampling?: { createMessage?: object };
    elicitation?: { create?: object };
  };
}

/** `capabilities.tasks` of a server: which of the client's requests may run as tasks on the server. */
export interface ServerTasksCapability extends TasksCapabilityBase {
  /** The full list: a request not named here cannot run as a task. */
  requests?: {
    tools?: { call?: object };
  };
}
