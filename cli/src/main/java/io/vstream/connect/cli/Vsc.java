package io.vstream.connect.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code vsc}, the operator CLI of vstream-connect: starts online-DDL and clone workflows on a Connect cluster
 * through its REST API, shows their progress from the coordinator's status topic, and postpones, releases or
 * cancels them (config changes of the coordinator connector). A thin picocli layer; the work is in
 * {@link ConnectRestClient}, {@link WorkflowConfigs}, {@link StatusReader} and {@link StatusView}.
 */
@Command(name = "vsc", mixinStandardHelpOptions = true, versionProvider = Vsc.Version.class,
        description = "Operate vstream-connect workflows on a Kafka Connect cluster.",
        subcommands = {StartCommand.class, StatusCommand.class, ControlCommand.Cutover.class,
                ControlCommand.Postpone.class, ControlCommand.Cancel.class, ControlCommand.Release.class, ControlCommand.Revert.class,
                DiffCommand.class, ValidateCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 ok, 1 failure or validation errors, 2 usage, 3 cannot reach the cluster,"
                + " 4 (diff) the target differs from its source."})
public final class Vsc implements java.util.concurrent.Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** {@code vsc} alone: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    public static void main(String[] args) {
        int code = execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        System.exit(code);
    }

    /** Runs one command line, writing to {@code out} and {@code err}; returns the exit code ({@link ExitCodes}). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine();
        cl.setOut(out);
        cl.setErr(err);
        try {
            return cl.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Vsc());
        cl.setExitCodeExceptionMapper(e -> e instanceof CliException c ? c.exitCode()
                : e instanceof CommandLine.ParameterException ? ExitCodes.USAGE : ExitCodes.FAILURE);
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof CliException c) {
                cmd.getErr().println("vsc: " + c.getMessage());
                if (c.exitCode() == ExitCodes.USAGE) {
                    cmd.getErr().println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help'.");
                }
                return c.exitCode();
            }
            cmd.getErr().println("vsc: " + e);
            return ExitCodes.FAILURE;
        });
        return cl;
    }

    /** The version of the jar (the Maven project version). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"vsc " + io.vstream.connect.core.Version.get()};
        }
    }
}
