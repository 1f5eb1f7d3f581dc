package io.clrheap.cli;

import java.io.PrintWriter;
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
        subcommands = {DemoCommand.class, GenerateCommand.class, ScenariosCommand.class, WalkCommand.class, ConformCommand.class, GoldenCommand.class, CaptureCommand.class,
            MapCommand.class,
            MaterializeCommand.class,
            ExplainCommand.class,
            GcRootCommand.class,
            ObjSizeCommand.class,
            LayoutCommand.class,
            CommandLine.HelpCommand.class},
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

    /** Runs the command line with the given streams; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new ClrheapCommand());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler(new ErrorReporter());
        cli.setParameterExceptionHandler(ClrheapCommand::badUsage);
        return cli.execute(args);
    }
}
