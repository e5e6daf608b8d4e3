// guard's plugin for OpenCode, written by guard init --agent opencode; guard
// doctor --agent opencode checks that it is this file. Before every tool call
// it runs guard hook and waits for it; the call runs only if guard allows
// it, with the arguments guard gives back. Anything else stops the call: a
// deny, with guard's reason for the model, and a guard that is missing,
// fails, runs past the timeout or answers what this plugin cannot read.
// The protocol (version 1) is described in guard's agent/opencode.go.
import { spawnSync } from "node:child_process";

const command = /*COMMAND*/;
const timeout = /*TIMEOUT*/;

function blocked(why) {
  return new Error("guard: denied: " + why);
}

export const GuardPlugin = async ({ directory, worktree }) => ({
  "tool.execute.before": async (input, output) => {
    const event = JSON.stringify({
      guard_opencode: 1,
      hook: "tool.execute.before",
      tool: input.tool,
      sessionID: input.sessionID,
      callID: input.callID,
      directory,
      worktree,
      args: output.args,
    });
    const r = spawnSync(command[0], command.slice(1), {
      input: event,
      encoding: "utf8",
      timeout,
      maxBuffer: 1 << 24,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stderr = (r.stderr || "").trim();
    if (r.error) {
      throw blocked(`guard hook did not run (${command[0]}): ${r.error.message}`);
    }
    if (r.status === 2) {
      throw new Error(stderr || "guard: denied: guard hook exited 2 without a reason");
    }
    if (r.status !== 0) {
      throw blocked(`guard hook failed (exit ${r.status ?? r.signal})${stderr ? ": " + stderr : ""}`);
    }
    let answer;
    try {
      answer = JSON.parse(r.stdout);
    } catch (e) {
      throw blocked(`guard hook's answer is not JSON: ${e.message}`);
    }
    if (answer === null || typeof answer !== "object" || answer.guard_opencode !== 1 || answer.decision !== "allow") {
      throw blocked("guard hook's answer is not an allow of this plugin's protocol (version 1)");
    }
    if (answer.args === undefined) {
      return;
    }
    const args = answer.args;
    if (args === null || typeof args !== "object" || Array.isArray(args) || output.args === null || typeof output.args !== "object") {
      throw blocked("guard hook's rewritten arguments are not an object");
    }
    // JSON.parse makes __proto__ an own key; assigned, it would set the
    // arguments' prototype, and the tool would read what they lack from it.
    if (Object.hasOwn(args, "__proto__")) {
      throw blocked("guard hook's rewritten arguments have a __proto__ key");
    }
    // In place: OpenCode runs the tool with this object.
    for (const k of Object.keys(output.args)) {
      delete output.args[k];
    }
    Object.assign(output.args, args);
  },
});
