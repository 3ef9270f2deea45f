package io.vstream.connect.local;

/** Sleeps, turning an interrupt (Ctrl-C while waiting) into an exception that ends the current step. */
public final class Sleeper {
    private Sleeper() {
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
