package io.vstream.connect.coordinator.cutover;

import io.vstream.connect.coordinator.cutover.CutOverResult.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts over every shard of a keyspace, in one of two {@link Mode modes}: each shard on its own as soon as it is
 * ready, or all at once (lock every shard, then issue every RENAME, then unlock every shard), where a failure on any
 * shard before the first unlock aborts all of them and the attempt is retried with backoff. Touches every shard's
 * primary, through {@link SentryCutOver} / {@link CutOverAttempt}.
 */
public final class MultiShardCutOver {
    private static final Logger LOG = LoggerFactory.getLogger(MultiShardCutOver.class);

    /** How the shards' cut-overs relate in time. */
    public enum Mode {
        /**
         * Each shard cuts over (with its own retries) as soon as its readiness check passes; shards switch to the
         * new table at different moments and a failing shard does not hold the others back.
         */
        PER_SHARD_AS_READY,
        /**
         * Every shard is locked and caught up, then every RENAME is queued, then every shard is unlocked: all shards
         * switch within the unlock round, and writes on every shard wait for the slowest shard's barrier. Any failure
         * before the first unlock aborts all shards (the original tables stay everywhere).
         */
        ALL_AT_ONCE
    }

    /**
     * One shard to cut over.
     *
     * @param ready whether the shard is ready (e.g. the applier's lag is small); asked repeatedly in
     *              {@link Mode#PER_SHARD_AS_READY}, once before each attempt in {@link Mode#ALL_AT_ONCE}
     */
    public record Shard(String name, ConnectionFactory connections, CutOverTables tables, ApplierBarrier barrier,
                        BooleanSupplier ready) {
        public Shard {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(connections, "connections");
            Objects.requireNonNull(tables, "tables");
            Objects.requireNonNull(barrier, "barrier");
            Objects.requireNonNull(ready, "ready");
        }

        /** A shard that is always ready. */
        public static Shard of(String name, ConnectionFactory connections, CutOverTables tables,
                               ApplierBarrier barrier) {
            return new Shard(name, connections, tables, barrier, () -> true);
        }
    }

    /** Every shard's last result, in the order the shards were given. */
    public record Result(Mode mode, List<CutOverResult> shards) {
        public Result {
            shards = List.copyOf(shards);
        }

        public boolean allSwapped() {
            return shards.stream().allMatch(CutOverResult::swapped);
        }
    }

    private final List<Shard> shards;
    private final CutOverSettings settings;
    private final Mode mode;
    private final Duration readyTimeout;
    private final CutOverListener listener;

    public MultiShardCutOver(List<Shard> shards, CutOverSettings settings, Mode mode, Duration readyTimeout) {
        this(shards, settings, mode, readyTimeout, CutOverListener.NONE);
    }

    private MultiShardCutOver(List<Shard> shards, CutOverSettings settings, Mode mode, Duration readyTimeout,
                              CutOverListener listener) {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("No shards to cut over");
        }
        this.shards = List.copyOf(shards);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.readyTimeout = Objects.requireNonNull(readyTimeout, "readyTimeout");
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    public MultiShardCutOver withListener(CutOverListener stepListener) {
        return new MultiShardCutOver(shards, settings, mode, readyTimeout, stepListener);
    }

    /** Cuts over every shard; a shard not ready within the ready timeout is reported ABORTED. */
    public Result run() throws InterruptedException {
        return mode == Mode.ALL_AT_ONCE ? allAtOnce() : perShard();
    }

    private Result perShard() throws InterruptedException {
        CutOverResult[] results = new CutOverResult[shards.size()];
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        int left = shards.size();
        while (left > 0) {
            boolean progressed = false;
            for (int i = 0; i < shards.size(); i++) {
                if (results[i] == null && shards.get(i).ready().getAsBoolean()) {
                    results[i] = cutOver(shards.get(i)).run();
                    left--;
                    progressed = true;
                }
            }
            if (left > 0 && !progressed) {
                if (System.nanoTime() > deadline) {
                    break;
                }
                Thread.sleep(200);
            }
        }
        List<CutOverResult> out = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            out.add(results[i] != null ? results[i] : notReady(shards.get(i), 0));
        }
        return new Result(mode, out);
    }

    private Result allAtOnce() throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(shards.size(), r -> {
            Thread thread = new Thread(r, "cutover-all-at-once");
            thread.setDaemon(true);
            return thread;
        });
        try {
            awaitAllReady();
            List<CutOverResult> results = null;
            for (int n = 1; n <= settings.maxAttempts(); n++) {
                results = allAtOnceAttempt(pool, n);
                boolean anySwapped = results.stream().anyMatch(CutOverResult::swapped);
                boolean allRetriable = results.stream().allMatch(CutOverResult::retriable);
                if (anySwapped || !allRetriable || n == settings.maxAttempts()) {
                    return new Result(mode, finishStragglers(results, n));
                }
                Duration pause = settings.backoffAfter(n);
                LOG.info("All-at-once cut-over attempt {} aborted on every shard; retrying in {} ms", n,
                        pause.toMillis());
                Thread.sleep(pause.toMillis());
            }
            return new Result(mode, results);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * After an unlock round some shards may have swapped while others aborted: the all-at-once guarantee is gone,
     * so the aborted ones continue on their own with their remaining attempts.
     */
    private List<CutOverResult> finishStragglers(List<CutOverResult> results, int attemptsUsed)
            throws InterruptedException {
        if (results.stream().noneMatch(CutOverResult::swapped) || attemptsUsed >= settings.maxAttempts()) {
            return results;
        }
        List<CutOverResult> out = new ArrayList<>(results);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).retriable()) {
                LOG.warn("Cut-over {}: other shards swapped in the all-at-once round but this one aborted ({});"
                        + " continuing on its own", shards.get(i).name(), out.get(i).reason());
                out.set(i, cutOver(shards.get(i)).run(attemptsUsed + 1));
            }
        }
        return out;
    }

    private List<CutOverResult> allAtOnceAttempt(ExecutorService pool, int n) throws InterruptedException {
        List<CutOverAttempt> attempts = new ArrayList<>();
        for (Shard shard : shards) {
            if (!shard.ready().getAsBoolean()) {
                List<CutOverResult> out = new ArrayList<>();
                for (Shard s : shards) {
                    out.add(notReady(s, n));
                }
                return out;
            }
            attempts.add(cutOver(shard).newAttempt(n));
        }
        List<CutOverAttempt.Abort> failures = phase(pool, attempts, CutOverAttempt::prepare);
        if (failures.stream().allMatch(Objects::isNull)) {
            failures = phase(pool, attempts, CutOverAttempt::lockAndCatchUp);
        }
        if (failures.stream().allMatch(Objects::isNull)) {
            LOG.info("All-at-once cut-over attempt {}: every shard is locked and caught up", n);
            failures = phase(pool, attempts, CutOverAttempt::issueRename);
        }
        CutOverAttempt.Abort first = failures.stream().filter(Objects::nonNull).findFirst().orElse(null);
        if (first != null) {
            List<CutOverAttempt.Abort> own = failures;
            String why = "aborted with the other shards (all-at-once): " + first.getMessage();
            return collect(pool, attempts, a -> {
                CutOverAttempt.Abort mine = own.get(attempts.indexOf(a));
                return mine != null ? a.abort(mine.outcome, mine.getMessage()) : a.abort(Outcome.ABORTED, why);
            });
        }
        LOG.info("All-at-once cut-over attempt {}: every RENAME is queued; unlocking every shard", n);
        return collect(pool, attempts, CutOverAttempt::finish);
    }

    private void awaitAllReady() throws InterruptedException {
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        while (!shards.stream().allMatch(s -> s.ready().getAsBoolean()) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
    }

    @FunctionalInterface
    private interface Phase {
        void run(CutOverAttempt attempt) throws CutOverAttempt.Abort;
    }

    @FunctionalInterface
    private interface Ending {
        CutOverResult end(CutOverAttempt attempt);
    }

    /** Runs {@code phase} on every shard in parallel; each shard's failure (null where it succeeded). */
    private static List<CutOverAttempt.Abort> phase(ExecutorService pool, List<CutOverAttempt> attempts,
                                                    Phase phase) throws InterruptedException {
        List<Future<CutOverAttempt.Abort>> futures = new ArrayList<>();
        for (CutOverAttempt attempt : attempts) {
            futures.add(pool.submit(() -> {
                try {
                    phase.run(attempt);
                    return null;
                } catch (CutOverAttempt.Abort a) {
                    return new CutOverAttempt.Abort(a.outcome, "shard " + attempt.shard() + ": " + a.getMessage(),
                            a);
                } catch (RuntimeException e) {
                    return new CutOverAttempt.Abort(Outcome.ABORTED, "shard " + attempt.shard() + ": unexpected "
                            + Waits.describe(e), e);
                }
            }));
        }
        List<CutOverAttempt.Abort> failures = new ArrayList<>();
        for (Future<CutOverAttempt.Abort> f : futures) {
            failures.add(get(f));
        }
        return failures;
    }

    /** Ends every shard's attempt in parallel (so every lock is released as early as possible). */
    private static List<CutOverResult> collect(ExecutorService pool, List<CutOverAttempt> attempts, Ending ending)
            throws InterruptedException {
        List<Future<CutOverResult>> futures = new ArrayList<>();
        for (CutOverAttempt attempt : attempts) {
            futures.add(pool.submit(() -> ending.end(attempt)));
        }
        List<CutOverResult> results = new ArrayList<>();
        for (Future<CutOverResult> f : futures) {
            results.add(get(f));
        }
        return results;
    }

    private static <V> V get(Future<V> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("A cut-over phase failed unexpectedly: " + e.getCause(), e.getCause());
        }
    }

    private SentryCutOver cutOver(Shard shard) {
        return new SentryCutOver(shard.name(), shard.connections(), shard.tables(), settings, shard.barrier())
                .withListener(listener);
    }

    private CutOverResult notReady(Shard shard, int attempt) {
        return new CutOverResult(shard.name(), Outcome.ABORTED, attempt, null, null, Map.of(), Duration.ZERO,
                Duration.ZERO, "not ready within " + readyTimeout.toMillis() + " ms; nothing was locked");
    }
}
