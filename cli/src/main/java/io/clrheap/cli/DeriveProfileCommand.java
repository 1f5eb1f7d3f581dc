package io.clrheap.cli;

import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.TargetOs;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.DumpImage;
import io.clrheap.walker.runtime.TargetException;
import io.clrheap.walker.runtime.derive.BuildDeriver;
import io.clrheap.walker.runtime.derive.BuildDeriver.DerivedBuild;
import io.clrheap.walker.runtime.shape.DacEntry;
import io.clrheap.walker.runtime.shape.EntryFinding;
import io.clrheap.walker.runtime.shape.FieldFinding;
import io.clrheap.walker.source.DumpFormatException;
import io.clrheap.walker.source.live.LiveProcessException;
import io.clrheap.walker.source.PendingFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code clrheap derive-profile}: a runtime build's g_dacTable indexes and gc_heap offsets, derived from real processes. */
@Command(
        name = "derive-profile",
        mixinStandardHelpOptions = true,
        description = {"Derive a runtime build's layout facts from its real dumps or processes and write them as one build file.",
            "Reads the build's identity (the '@(#)Version <file version> @Commit: <sha>' string in the runtime "
                    + "module), the length of g_dacTable (its ELF st_size / 8), the index of every g_dacTable entry the walker "
                    + "relies on (ThreadStore, g_gcDacGlobals, the free-object MethodTable, ...: each found by the shape of "
                    + "what it points at, dacvars.h order breaking ties, the contract descriptor's globals checked where "
                    + "present) and, from a server-GC input, the offsets of gc_heap's fields (those the GC publishes, and "
                    + "vm_heap and heap_number by their shape).",
            "Several inputs (e.g. a workstation and a server dump) must be of one build and agree.",
            "Each fact carries its evidence; 'checks' lists every check made, with addresses."},
        footer = {
            "",
            "Examples:",
            "  ./clrheap derive-profile captured/10.0.3-wks/core.xz captured/10.0.3-svr/core.xz --out 10.0.3.json",
            "  ./clrheap derive-profile new-wks/core.xz new-svr/core.xz --into "
                    + "layout-model/src/main/resources/io/clrheap/layout/profiles/builds",
            "  ./clrheap derive-profile --pid 4242 --source '@azure/mcp-linux-x64@2.0.0-beta.20'",
            "  ./clrheap derive-profile golden/real/net8-svr/core.xz",
            "",
            "The file is deterministic: the same inputs give the same bytes (inputs are taken in sorted order).",
            "",
            "Exit codes: 0 success; 1 an entry or field was not found or is ambiguous, or the inputs are of different "
                    + "builds or disagree (the file is not written unless --partial); 2 bad usage (also a path that does not "
                    + "exist and a --pid that is no process); 3 an input cannot be read as a Linux process image with a .NET "
                    + "runtime."})
final class DeriveProfileCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "DUMP", description = "ELF cores (or DUMP.xz) or fixture bundles of processes of one runtime build.")
    List<Path> dumps = new ArrayList<>();

    @Option(names = "--pid", paramLabel = "PID", description = "A running .NET process (repeatable); read while it runs.")
    List<Integer> pids = new ArrayList<>();

    @Option(names = "--out", paramLabel = "FILE", description = "Write the build file here (default: standard output).")
    Path out;

    @Option(names = "--into", paramLabel = "DIR", description = "Write the build file into the profiles' builds folder DIR as "
            + "linux-x64-VERSION.json and list VERSION in DIR/index.json: the build is then known (rebuild and commit both).")
    Path into;

    @Option(names = "--partial", description = "Write what was found even when entries are missing (listed under 'unresolved'); still exit 1.")
    boolean partial;

    @Option(names = "--module", paramLabel = "FILE", description = "The runtime binary, for dumps that lack its ELF headers.")
    Path module;

    @Option(names = "--source", paramLabel = "TEXT", description = "Where the build comes from (e.g. the npm package), for the file's 'sources'.")
    String source;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** One input, opened and derived. */
    record Input(String name, String format, DerivedBuild build) {
    }

    @Override
    public Integer call() throws Exception {
        CommandLine cli = spec.commandLine();
        PrintWriter err = cli.getErr();
        if (dumps.isEmpty() && pids.isEmpty()) {
            throw new CommandLine.ParameterException(cli, "give at least one DUMP or --pid PID");
        }
        for (Path d : dumps) {
            if (!Files.exists(d)) {
                throw new CommandLine.ParameterException(cli, "no such file: " + d);
            }
        }
        for (int pid : pids) {
            if (pid <= 0) {
                throw new CommandLine.ParameterException(cli, "--pid must be a process id (a positive number), not " + pid);
            }
        }
        if (into != null && (out != null || !Files.isRegularFile(into.resolve("index.json")))) {
            throw new CommandLine.ParameterException(cli, out != null ? "--into and --out are exclusive"
                    : "--into " + into + ": not a builds folder (it has no index.json)");
        }
        if (module != null && !Files.isRegularFile(module)) {
            throw new CommandLine.ParameterException(cli, "no such file: " + module);
        }
        BuildDeriver deriver = new BuildDeriver(ProfileLoader.builtIn());
        List<Input> inputs = new ArrayList<>();
        List<String> names = new ArrayList<>(dumps.stream().map(Path::toString).sorted().toList());
        for (String name : names) {
            Optional<Integer> code = derive(err, deriver, name, () -> DumpImage.open(Path.of(name), Optional.ofNullable(module)), inputs);
            if (code.isPresent()) {
                return code.get();
            }
        }
        for (int pid : pids.stream().sorted().toList()) {
            try {
                Optional<Integer> code = derive(err, deriver, "process " + pid, () -> DumpImage.attach(pid, Optional.ofNullable(module)), inputs);
                if (code.isPresent()) {
                    return code.get();
                }
            } catch (LiveProcessException e) {
                err.println("clrheap derive-profile: " + e.getMessage());
                return switch (e.kind()) {
                    case NO_SUCH_PROCESS -> 2;
                    case PERMISSION_DENIED -> WalkCommand.EXIT_CANNOT_OPEN;
                    case EXITED, FAILED -> 1;
                };
            }
        }
        DerivedProfile profile = DerivedProfile.of(inputs, source);
        for (String problem : profile.problems()) {
            err.println("clrheap derive-profile: " + problem);
        }
        if (!profile.problems().isEmpty() && !partial) {
            err.println("clrheap derive-profile: nothing written" + (out == null ? "" : " to " + out) + " (--partial writes what was found)");
            return 1;
        }
        String json = profile.json(!profile.problems().isEmpty());
        if (into != null && profile.problems().isEmpty()) {
            out = into.resolve(profile.platform() + "-" + profile.version() + ".json");
        }
        if (out == null) {
            cli.getOut().print(json);
            cli.getOut().flush();
        } else {
            // under a hidden temporary name beside it until complete: a reader never sees half a file, an interrupted run leaves none
            PendingFile.write(out, partial -> Files.writeString(partial, json, StandardCharsets.UTF_8));
            err.printf("clrheap derive-profile: %s (%s, %d entries, %s) written to %s%n", profile.version(), profile.fileVersion(), profile.tableLength(),
                    profile.gcModes(), out);
        }
        if (into != null && profile.problems().isEmpty()) {
            BuildIndex.add(into.resolve("index.json"), profile.platform(), profile.version());
            err.printf("clrheap derive-profile: %s listed in %s%n", profile.version(), into.resolve("index.json"));
        }
        return profile.problems().isEmpty() ? 0 : 1;
    }

    @FunctionalInterface
    private interface Opener {
        DumpImage open() throws IOException, TargetException;
    }

    /** Opens and derives one input; an exit code when it cannot be read. */
    private static Optional<Integer> derive(PrintWriter err, BuildDeriver deriver, String name, Opener opener, List<Input> inputs) {
        try (DumpImage image = opener.open()) {
            DerivedBuild build = deriver.derive(image.memory(), image.runtime());
            inputs.add(new Input(name, image.format(), build));
            return Optional.empty();
        } catch (TargetException e) {
            err.println("clrheap derive-profile: " + name + ": " + e.getMessage());
            return Optional.of(WalkCommand.EXIT_CANNOT_OPEN);
        } catch (DumpFormatException e) {
            err.println("clrheap derive-profile: " + e.getMessage());
            return Optional.of(WalkCommand.EXIT_CANNOT_OPEN);
        } catch (IOException e) {
            err.println("clrheap derive-profile: cannot open " + name + ": " + e.getMessage());
            return Optional.of(WalkCommand.EXIT_CANNOT_OPEN);
        } catch (BuildDeriver.DeriveException e) {
            err.println("clrheap derive-profile: " + name + ": " + e.getMessage());
            return Optional.of(1);
        }
    }

    /**
     * The build file of one or more inputs of one build: their facts merged (they must agree), in the profile's
     * {@code [value, certainty, source(, note)]} convention, written deterministically.
     */
    record DerivedProfile(List<Input> inputs, String sourceText, List<String> problems) {

        static DerivedProfile of(List<Input> inputs, String sourceText) {
            List<String> problems = new ArrayList<>();
            Input first = inputs.get(0);
            for (Input i : inputs.subList(1, inputs.size())) {
                var a = first.build().identity();
                var b = i.build().identity();
                boolean sameCommit = a.commit().isEmpty() || b.commit().isEmpty() || a.commit().equals(b.commit());
                if (!a.fileVersion().equals(b.fileVersion()) || !sameCommit
                        || first.build().located().module().dacTableLength() != i.build().located().module().dacTableLength()) {
                    problems.add(String.format("the inputs are different builds: %s is %s (%s%s, %d entries), %s is %s (%s%s, %d entries)",
                            first.name(), a.version(), a.fileVersion(), a.commit().isEmpty() ? "" : " @" + a.commit(), first.build().located().module().dacTableLength(),
                            i.name(), b.version(), b.fileVersion(), b.commit().isEmpty() ? "" : " @" + b.commit(), i.build().located().module().dacTableLength()));
                }
            }
            if (!problems.isEmpty()) {
                return new DerivedProfile(inputs, sourceText, problems);
            }
            for (Input i : inputs) {
                i.build().table().unresolved().forEach((e, why) -> problems.add(String.format("%s: %s not found: %s", i.name(), e.dacName(), why)));
                i.build().heap().ifPresent(h -> h.unresolved().forEach((f, why) -> problems.add(String.format("%s: gc_heap.%s not found: %s", i.name(), f, why))));
            }
            // the inputs must agree on every index and offset they both found
            for (DacEntry e : DacEntry.values()) {
                Map<Integer, List<String>> seen = new TreeMap<>();
                for (Input i : inputs) {
                    i.build().table().indexOf(e).ifPresent(x -> seen.computeIfAbsent(x, k -> new ArrayList<>()).add(i.name()));
                }
                if (seen.size() > 1) {
                    problems.add(String.format("the inputs disagree on %s: %s", e.dacName(), seen));
                }
            }
            Map<String, Map<Long, List<String>>> offsets = new TreeMap<>();
            for (Input i : inputs) {
                i.build().heap().ifPresent(h -> h.fields().values().forEach(f -> offsets.computeIfAbsent(f.field(), k -> new TreeMap<>())
                        .computeIfAbsent(f.offset(), k -> new ArrayList<>()).add(i.name())));
            }
            offsets.forEach((field, seen) -> {
                if (seen.size() > 1) {
                    problems.add(String.format("the inputs disagree on gc_heap.%s: %s", field, seen));
                }
            });
            return new DerivedProfile(inputs, sourceText, problems);
        }

        String version() {
            return inputs.get(0).build().identity().version();
        }

        String fileVersion() {
            return inputs.get(0).build().identity().fileVersion();
        }

        /** {@code linux-x64} or {@code windows-x64}: the build file's name prefix and its key in index.json. */
        String platform() {
            return inputs.get(0).build().located().os().id() + "-x64";
        }

        int tableLength() {
            return inputs.get(0).build().located().module().dacTableLength();
        }

        String gcModes() {
            return String.join(" and ", inputs.stream().map(i -> i.build().gc().id()).distinct().sorted().toList()) + " GC";
        }

        /** {@code /tmp/builds/10.0.3-svr/core.xz} → {@code 10.0.3-svr/core.xz}; a process ({@code pid 4242}) as it is. */
        private static String shortName(String name) {
            java.nio.file.Path p = java.nio.file.Path.of(name);
            int n = p.getNameCount();
            return name.startsWith("pid ") || n < 2 ? name : p.subpath(n - 2, n).toString();
        }

        private String key() {
            return "B:" + version();
        }

        String json(boolean withUnresolved) {
            DerivedBuild b = inputs.get(0).build();
            BuildFileJson j = new BuildFileJson();
            // the inputs by their last two path parts (a folder per build and GC, as capture writes them): no local paths in the file
            String inputNames = String.join(", ", inputs.stream().map(i -> shortName(i.name())).toList());
            j.open("{");
            j.field("?", "Derived by clrheap derive-profile " + version() + " from " + inputNames + "; do not edit by hand: run it again.");
            j.raw("build", "{\"version\": " + BuildFileJson.quote(version()) + ", \"fileVersion\": " + BuildFileJson.quote(fileVersion()) + ", \"commit\": "
                    + BuildFileJson.quote(b.identity().commit()) + ",\n            \"runtime\": " + BuildFileJson.quote(b.runtime().moniker())
                    + ", \"os\": " + BuildFileJson.quote(b.located().os().id()) + ", \"arch\": \"x64\"}");
            StringBuilder what = new StringBuilder();
            for (Input i : inputs) {
                if (!what.isEmpty()) {
                    what.append("; ");
                }
                what.append(String.format("%s (%s, %s GC, %s%s; identity from %s)", shortName(i.name()), i.format(), i.build().gc().id(),
                        i.build().located().module().fileName(),
                        i.build().descriptor() ? ", contract descriptor read" : "", i.build().identity().source().replaceAll(" at 0x[0-9a-f]+", "")));
            }
            if (sourceText != null && !sourceText.isBlank()) {
                what.append("; ").append(sourceText.strip());
            }
            j.raw("sources", "{" + BuildFileJson.quote(key()) + ": " + BuildFileJson.quote("clrheap derive-profile of " + what) + "}");
            j.raw("dacTableLength", "[" + tableLength() + ", \"dump\", " + BuildFileJson.quote(key()) + ", "
                    + BuildFileJson.quote(b.located().os() == TargetOs.LINUX
                            ? String.format("st_size %d of g_dacTable in %s", tableLength() * 8L, b.located().module().fileName())
                            : String.format("g_dacTable in %s (a PE export, no size): %d non-zero words, then a 0 word", b.located().module().fileName(), tableLength()))
                    + "]");
            // the table: each entry from the first input that found it, by index
            Map<DacEntry, EntryFinding> found = new java.util.EnumMap<>(DacEntry.class);
            for (Input i : inputs) {
                i.build().table().found().forEach(found::putIfAbsent);
            }
            List<EntryFinding> byIndex = found.values().stream().sorted(java.util.Comparator.comparingInt(EntryFinding::index)).toList();
            j.openField("dacTable", "{");
            for (EntryFinding f : byIndex) {
                j.item(BuildFileJson.quote(f.entry().dacName()) + ": [" + f.index() + ", " + BuildFileJson.quote(f.certainty().id()) + ", " + BuildFileJson.quote(key()) + ", "
                        + BuildFileJson.quote(f.evidence()) + "]");
            }
            j.close("}");
            List<Input> servers = inputs.stream().filter(i -> i.build().gc() == GcFlavor.SERVER && i.build().heap().isPresent()).toList();
            if (!servers.isEmpty()) {
                Map<String, FieldFinding> fields = new java.util.LinkedHashMap<>();
                for (Input i : servers) {
                    i.build().heap().get().fields().forEach(fields::putIfAbsent);
                }
                j.openField("variants", "{");
                j.openField("server", "{");
                j.openField("types", "{");
                j.openField("gc_heap", "{");
                fields.values().stream().sorted(java.util.Comparator.comparingLong(FieldFinding::offset).thenComparing(FieldFinding::field)).forEach(f ->
                        j.item(BuildFileJson.quote(f.field()) + ": [" + BuildFileJson.quote(String.format("0x%x", f.offset())) + ", " + BuildFileJson.quote(f.type()) + ", "
                                + BuildFileJson.quote(f.certainty().id()) + ", " + BuildFileJson.quote(key()) + ", " + BuildFileJson.quote(f.evidence()) + "]"));
                j.close("}");
                j.close("}");
                j.close("}");
                j.close("}");
            }
            if (withUnresolved) {
                j.openField("unresolved", "[");
                for (String p : problems) {
                    j.item(BuildFileJson.quote(p));
                }
                j.close("]");
            }
            j.openField("checks", "[");
            for (Input i : inputs) {
                String prefix = inputs.size() > 1 ? "[" + shortName(i.name()) + "] " : "";
                j.item(BuildFileJson.quote(prefix + String.format("%s: %s (%s%s) from %s; %s GC; g_dacTable at 0x%x, %d entries", shortName(i.name()),
                        i.build().identity().version(), i.build().identity().fileVersion(),
                        i.build().identity().commit().isEmpty() ? "" : " @" + i.build().identity().commit(), i.build().identity().source(), i.build().gc().id(),
                        i.build().located().module().dacTable(), i.build().located().module().dacTableLength())));
                for (String c : i.build().table().checks()) {
                    j.item(BuildFileJson.quote(prefix + c));
                }
                i.build().reference().ifPresent(r -> i.build().table().driftFrom(r).forEach(line -> j.item(BuildFileJson.quote(prefix + "against " + r.version() + ": " + line))));
                for (String c : i.build().heap().map(h -> h.checks()).orElse(List.of())) {
                    j.item(BuildFileJson.quote(prefix + c));
                }
            }
            j.close("]");
            j.close("}");
            return j.text();
        }
    }
}
