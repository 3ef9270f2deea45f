package io.vstream.connect.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.connect.runtime.rest.entities.ConnectorStateInfo;

/**
 * Kills one Connect worker process of the stress command's group with SIGKILL in the middle of a migration, as a
 * machine that crashes (no shutdown, no offset flush, no leaving the group), and starts it again at once (same group,
 * same REST port); notes which of the migration's connectors and tasks ran on it. Touches the worker processes
 * (through {@link ConnectProcesses}) and their REST API.
 */
final class WorkerKiller {
    /**
     * A kill planned for a migration: which worker, and when: {@code delaySeconds} after the workflow first reached
     * {@code state} or a later one (a migration that skips the state, as a small table skips catching up, is killed
     * in the next one).
     */
    record Plan(int worker, Phase state, double delaySeconds) {
        String describe() {
            return String.format(Locale.ROOT, "worker %d, %.1f s into %s", worker, delaySeconds,
                    state.name().toLowerCase(Locale.ROOT).replace('_', ' '));
        }
    }

    /**
     * The states a kill aims at, in the workflow's order, each with the longest delay drawn after reaching it: the
     * copy (the source's copy and the sink's applying), the catch-up (and ready), the cut-over (the checksum, the
     * locks and the swap).
     */
    enum Phase {
        COPYING(1, 10), CATCHING_UP(2, 5), CUTTING_OVER(4, 2);

        final int order;
        final double maxDelaySeconds;

        Phase(int order, double maxDelaySeconds) {
            this.order = order;
            this.maxDelaySeconds = maxDelaySeconds;
        }

        /** Whether a workflow in {@code state} has reached this phase (or a later one) and not ended. */
        boolean reachedBy(String state) {
            int o = order(state);
            return o >= order && o < order("COMPLETE");
        }

        /** The order of a workflow state; STALLED and unknown states are -1 (they keep the phase as it was). */
        static int order(String state) {
            return switch (state) {
                case "CREATED" -> 0;
                case "COPYING" -> 1;
                case "CATCHING_UP" -> 2;
                case "READY", "POSTPONED" -> 3;
                case "CUTTING_OVER" -> 4;
                case "COMPLETE", "FAILED", "CANCELLED" -> 5;
                default -> -1;
            };
        }
    }

    /**
     * A kill that happened.
     *
     * @param worker         the worker's index
     * @param pid            the process that was killed
     * @param atSeconds      when, in seconds after the first deploy
     * @param state          the workflow's state then (its last status record), or "not started"
     * @param ran            the migration's connectors and tasks that ran on it, e.g. "coordinator task 0, sink task 1"
     * @param restartSeconds how long the new process took until its REST API answered
     * @param error          why it could not be started again, or null
     */
    record Kill(int worker, long pid, double atSeconds, String state, String ran, double restartSeconds,
                String error) {
        String describe() {
            return String.format(Locale.ROOT, "worker %d (pid %d) killed at %.1f s in %s; it ran %s; %s", worker, pid,
                    atSeconds, state, ran, error == null ? String.format(Locale.ROOT, "started again in %.1f s",
                            restartSeconds) : "NOT started again: " + error);
        }
    }

    private final ConnectProcesses connect;

    WorkerKiller(ConnectProcesses connect) {
        this.connect = connect;
    }

    /** Kills the planned worker now and starts it again; {@code roles} maps a role (coordinator, ...) to its name. */
    Kill kill(Plan plan, double atSeconds, String state, Map<String, String> roles) throws InterruptedException {
        int i = plan.worker();
        String ran = ranOn(i, roles);
        long pid = connect.workerPid(i);
        Bench.say(String.format(Locale.ROOT, "  kill -9 of Connect worker %d (pid %d) at %.1f s, workflow %s; it ran"
                + " %s", i, pid, atSeconds, state, ran));
        connect.killWorker(i);
        long t0 = System.nanoTime();
        String error = null;
        try {
            connect.restartWorker(i);
        } catch (Exception e) {
            error = e.getMessage();
        }
        double restart = (System.nanoTime() - t0) / 1e9;
        Kill kill = new Kill(i, pid, atSeconds, state, ran, restart, error);
        Bench.say(error == null ? String.format(Locale.ROOT, "  Connect worker %d started again in %.1f s (pid %d)", i,
                restart, connect.workerPid(i)) : "  Connect worker " + i + " could not be started again: " + error);
        return kill;
    }

    /** The connectors and tasks of {@code roles} that worker {@code index} runs, by the REST API's status. */
    private String ranOn(int index, Map<String, String> roles) {
        List<String> ran = new ArrayList<>();
        roles.forEach((role, name) -> {
            try {
                ConnectorStateInfo s = connect.status(name);
                if (connect.workerIndexOf(s.connector().workerId()) == index) {
                    ran.add(role + " connector");
                }
                for (ConnectorStateInfo.TaskState t : s.tasks()) {
                    if (connect.workerIndexOf(t.workerId()) == index) {
                        ran.add(role + " task " + t.id());
                    }
                }
            } catch (RuntimeException e) {
                ran.add(role + " unknown (" + e.getMessage() + ")");
            }
        });
        return ran.isEmpty() ? "none of the migration's connectors and tasks" : String.join(", ", ran);
    }
}
