package io.vstream.connect.coordinator.cutover;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The cut-over's bounded waits and quiet clean-ups: a statement on its own daemon thread, a wait that returns the
 * failure instead of throwing, closing a possibly dead connection, and one-line error descriptions (vendor code,
 * SQLState and the server's message, which names objects, not row values). Touches no server itself.
 */
final class Waits {
    private Waits() {
    }

    /** Runs {@code body} on a new daemon thread named {@code name}. */
    static <V> CompletableFuture<V> async(String name, Callable<V> body) {
        CompletableFuture<V> future = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                future.complete(body.call());
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return future;
    }

    /** Waits up to {@code timeout} for {@code f}; returns its failure, or null if it succeeded or is still running. */
    static Throwable await(CompletableFuture<?> f, Duration timeout) {
        if (f == null) {
            return null;
        }
        try {
            f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The failure of a completed future, else null. */
    static Throwable failureOf(CompletableFuture<?> f) {
        return f.isCompletedExceptionally() ? await(f, Duration.ZERO) : null;
    }

    static void close(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException | RuntimeException e) {
                // closing a dead connection
            }
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String describe(Throwable e) {
        if (e == null) {
            return "no error";
        }
        if (e instanceof SQLException s) {
            return "error " + s.getErrorCode() + " (SQLState " + s.getSQLState() + "): " + s.getMessage();
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    static String join(String a, String b) {
        return a == null ? b : b == null ? a : a + "; " + b;
    }
}
