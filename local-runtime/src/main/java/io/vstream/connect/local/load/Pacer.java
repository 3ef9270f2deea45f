package io.vstream.connect.local.load;

import java.util.function.BooleanSupplier;

/**
 * Paces one load thread to a fixed interval between transaction starts (no catch-up bursts after a stall
 * of more than a second). An interval of zero means unthrottled. Touches no server.
 */
final class Pacer {

    private static final long MAX_LAG_NANOS = 1_000_000_000L;
    private final long intervalNanos;
    private long next;

    Pacer(long intervalNanos) {
        this.intervalNanos = intervalNanos;
    }

    /** Waits for the next slot; false when a stop was requested meanwhile. */
    boolean await(BooleanSupplier stopRequested) {
        if (intervalNanos <= 0) {
            return true;
        }
        long now = System.nanoTime();
        next = next == 0 || now - next > MAX_LAG_NANOS ? now : next + intervalNanos;
        while (true) {
            long wait = next - System.nanoTime();
            if (wait <= 0) {
                return true;
            }
            if (stopRequested.getAsBoolean()) {
                return false;
            }
            try {
                Thread.sleep(Math.min(wait / 1_000_000L + 1, 50));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
