package io.vstream.connect.coordinator;

/**
 * A {@link WaitPace} for unit tests: a pause only moves the clock by its length, counts, and runs {@link #onPause}
 * (a test's server changing while the workflow waits). No test sleeps.
 */
final class CountingPace implements WaitPace {
    long nanos = 1_000_000_000L;
    int pauses;
    Runnable onPause = () -> { };

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public void pause(long millis) {
        pauses++;
        nanos += millis * 1_000_000;
        onPause.run();
    }
}
