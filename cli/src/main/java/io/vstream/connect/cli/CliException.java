package io.vstream.connect.cli;

/** An error that ends a command with a message for the operator and an exit code ({@link ExitCodes}). */
public class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    public CliException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    /** The Connect REST API or Kafka did not answer. */
    public static CliException unreachable(String what, Throwable cause) {
        return new CliException(ExitCodes.UNREACHABLE, "cannot reach " + what + " (" + describe(cause) + ")", cause);
    }

    /** A request the cluster refused or a state that makes the command fail. */
    public static CliException failure(String message) {
        return new CliException(ExitCodes.FAILURE, message);
    }

    /** A command line that makes no sense (exit 2, as picocli's own usage errors). */
    public static CliException usage(String message) {
        return new CliException(ExitCodes.USAGE, message);
    }

    private static String describe(Throwable t) {
        if (t == null) {
            return "no answer";
        }
        String m = t.getMessage();
        if (t instanceof java.net.ConnectException && (m == null || m.isBlank())) {
            return "connection refused";
        }
        return t.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
    }
}
