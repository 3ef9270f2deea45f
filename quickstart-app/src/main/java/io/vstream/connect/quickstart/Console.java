package io.vstream.connect.quickstart;

/** What the quickstart prints: one line per step with the time since the start. */
final class Console {
    private final long start = System.nanoTime();

    void step(String format, Object... args) {
        System.out.printf("[%5.1fs] %s%n", seconds(), String.format(format, args));
        System.out.flush();
    }

    void detail(String format, Object... args) {
        System.out.printf("         %s%n", String.format(format, args));
        System.out.flush();
    }

    void plain(String format, Object... args) {
        System.out.printf("%s%n", String.format(format, args));
        System.out.flush();
    }

    double seconds() {
        return (System.nanoTime() - start) / 1e9;
    }
}
