package io.vstream.connect.coordinator;

/**
 * The time a bounded wait of a workflow runs on (a loop that looks at a server until something holds or a deadline
 * passes): a monotonic clock and the pause between two looks. The task's workflows run on {@link #SYSTEM}; unit tests
 * give one that only moves its clock, so that no test sleeps.
 */
interface WaitPace {
    WaitPace SYSTEM = new WaitPace() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void pause(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    };

    long nanoTime();

    void pause(long millis) throws InterruptedException;
}
