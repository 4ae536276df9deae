// README's interop table is the one `npm run interop:peers -- --write` stored in
// fixtures/peers/results.json: a row edited by hand, or a run not written back, fails here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readmeTable, readResults, renderTable } from "../../scripts/peers/table.js";

test("README's interop table is drawn from fixtures/peers/results.json", () => {
  const table = readmeTable();
  assert.ok(table !== undefined, "README lacks the peers-table markers");
  assert.equal(table, renderTable(readResults()));
});

test("every stored row counts its checks, and a row with a failure says so", () => {
  for (const row of readResults()) {
    assert.ok(row.passed + row.failed > 0, `${row.peer}: no checks`);
    assert.match(renderTable([row]), row.failed === 0 ? /\d+ passed \|$/m : /failed \|$/m);
  }
});
