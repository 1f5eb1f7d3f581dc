package io.clrheap.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code clrheap} command line: the entry point of the shaded jar that {@code ./clrheap} runs. */
@Command(
        name = "clrheap",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Builds, packages and walks .NET CoreCLR GC heaps (x64; .NET 8, 9, 10; server and workstation GC).",
            ""
        },
        footerHeading = "%nAlso:%n",
        footer = {
            "  ./clrheap test   Run the whole test suite (mvn -B verify, by the launcher).",
            "",
            "Examples:",
            "  ./clrheap demo",
            "  ./clrheap scenarios",
            "  ./clrheap generate --scenario every-edge --runtime net10 --out fixtures/",
            "  ./clrheap walk fixtures/every-edge-net10-server.core --stat",
            "  ./clrheap map fixtures/every-edge-net10-server.core --html every-edge.html",
            "  ./clrheap explain golden/real/net8-svr/core.xz",
            "  ./clrheap golden",
            "  ./clrheap capture --pid 12345 --out golden/real/mine && ./clrheap golden check golden/real/mine",
            "  ./clrheap layout --runtime net8 --gc server --struct heap_segment",
            "  ./clrheap layout --runtime net10 --format json > net10-server.json",
            "",
            "Exit codes: 0 success; 1 a check failed or another failure; 2 bad usage; 3 unreadable or invalid input."
        })
public final class ClrheapCommand implements Runnable {

    /**
     * The commands, in the order the help lists them. They are added to the command line when it is built
     * ({@link #commandLine(String...)}): only the one a run names, since building picocli's model of every command
     * (their options, mixins and converters) was a sixth of a short command's start.
     */
    static final List<Class<?>> COMMANDS = List.of(DemoCommand.class, GenerateCommand.class, ScenariosCommand.class,
            WalkCommand.class, ConformCommand.class, GoldenCommand.class, CaptureCommand.class, MapCommand.class,
            MaterializeCommand.class, ExplainCommand.class, GcRootCommand.class, ObjSizeCommand.class, DumpObjCommand.class, DumpArrayCommand.class, DumpMtCommand.class, DumpVcCommand.class, LayoutCommand.class, DeriveProfileCommand.class,
            CommandLine.HelpCommand.class, AotTrainingCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** What one run of the command line returned and printed. */
    public record Outcome(int exitCode, String out, String err) {
    }

    /** Runs the command line in this JVM and captures what it prints (for tests, and programs that embed clrheap). */
    public static Outcome run(String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    /**
     * Bad usage: one line saying what is wrong (and picocli's suggestion for a mistyped option or command), then where
     * the help is — not the whole help, which would bury the one line that matters. Exit code 2.
     */
    static int badUsage(CommandLine.ParameterException e, String[] args) {
        CommandLine c = e.getCommandLine();
        PrintWriter err = c.getErr();
        String message = e.getMessage() == null ? "bad usage" : e.getMessage().replaceFirst("^Error: ", "");
        err.println(c.getCommandSpec().qualifiedName() + ": " + message);
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Try './" + c.getCommandSpec().qualifiedName() + " --help' for the options and examples.");
        err.flush();
        return c.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** The whole command line, every command in it (for the help, and tests that look at every command). */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new ClrheapCommand());
        COMMANDS.forEach(cli::addSubcommand);
        return cli.setUsageHelpAutoWidth(true); // help wraps at the terminal's width (80 when it has none)
    }

    /**
     * The command line for {@code args}: when they name a command, only that one is in it (what it parses and runs
     * is the same as with every command); {@code --version} alone needs none; anything else (help, a mistyped
     * command, the suggestions for it) gets every command.
     */
    static CommandLine commandLine(String... args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return new CommandLine(new ClrheapCommand()).setUsageHelpAutoWidth(true);
        }
        if (args.length > 0 && !args[0].equals("help")) {
            for (Class<?> c : COMMANDS) {
                if (c.getAnnotation(Command.class).name().equals(args[0])) {
                    CommandLine cli = new CommandLine(new ClrheapCommand());
                    cli.addSubcommand(c);
                    return cli.setUsageHelpAutoWidth(true);
                }
            }
        }
        return commandLine();
    }

    /** Runs the command line with the given streams; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = commandLine(args);
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler(new ErrorReporter());
        cli.setParameterExceptionHandler(ClrheapCommand::badUsage);
        return cli.execute(args);
    }
}
