package io.vstream.connect.quickstart;

/** Sleeps, turning an interrupt (Ctrl-C while waiting) into an exception that ends the current step. */
final class Sleeper {
    private Sleeper() {
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
