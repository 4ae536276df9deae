package peers.spring;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Each check of a Java peer prints one JSON line on stdout, {"check", "ok", "detail"}, which the
 * suite (suite.ts) turns into one of its own checks. A check fails by throwing.
 */
public final class Checks {
	public interface Body {
		String run() throws Exception;
	}

	private static final ObjectMapper JSON = new ObjectMapper();
	private int failed;

	public boolean check(String name, Body body) {
		Map<String, Object> line = new LinkedHashMap<>();
		line.put("check", name);
		try {
			String detail = body.run();
			line.put("ok", true);
			line.put("detail", detail == null ? "" : detail);
		}
		catch (Throwable error) {
			failed++;
			line.put("ok", false);
			line.put("detail", error.getClass().getSimpleName() + ": " + error.getMessage());
		}
		try {
			System.out.println(JSON.writeValueAsString(line));
			System.out.flush();
		}
		catch (Exception impossible) {
			throw new IllegalStateException(impossible);
		}
		return Boolean.TRUE.equals(line.get("ok"));
	}

	public int exitCode() {
		return failed == 0 ? 0 : 1;
	}

	public static void expect(boolean condition, String what) {
		if (!condition) throw new AssertionError(what);
	}

	public static String json(Object value) {
		try {
			return JSON.writeValueAsString(value);
		}
		catch (Exception error) {
			return String.valueOf(value);
		}
	}
}
