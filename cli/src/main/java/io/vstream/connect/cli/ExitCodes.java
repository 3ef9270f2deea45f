package io.vstream.connect.cli;

/** The exit codes of every {@code vsc} command (docs/cli.md lists them). */
public final class ExitCodes {
    /** Done; for {@code status}, every workflow shown is not failed. */
    public static final int OK = 0;
    /** The cluster answered no: validation errors, a failed workflow, an unknown connector, a refused request. */
    public static final int FAILURE = 1;
    /** The command line is wrong (picocli's usage error code). */
    public static final int USAGE = 2;
    /** The Connect REST API or Kafka cannot be reached. */
    public static final int UNREACHABLE = 3;
    /** {@code vsc diff}: the comparison ran to its end and found differences (named in the output). */
    public static final int DIFFERENT = 4;

    private ExitCodes() {
    }
}
