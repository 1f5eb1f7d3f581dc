package io.clrheap.dac;

import io.clrheap.dac.library.DacException;
import io.clrheap.walker.runtime.Target;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the DAC of a dump's exact build (its version string names the dump's runtime version, and its file version
 * and commit where the dump names them; see {@link DumpBuild#matches}) the way a .NET user has one, in this order: the
 * path given ({@code --dac}: a DAC, or a folder holding one or several, e.g. one folder per build); {@code $CLRHEAP_DAC}
 * (the same); the folder of the runtime module the dump names (a dump opened on the machine it was taken on);
 * {@code $DOTNET_ROOT/shared/Microsoft.NETCore.App/VERSION/}; the usual install folders ({@code ~/.dotnet},
 * {@code /usr/share/dotnet}, {@code /usr/lib/dotnet}). The first DAC of the build wins; DACs of other builds met on the
 * way are named when none is found. Never downloads anything.
 */
public final class DacLocator {

    public static final String FILE_NAME = "libmscordaccore.so";
    public static final String ENVIRONMENT_VARIABLE = "CLRHEAP_DAC";
    /** How deep a folder given as {@code --dac} or {@code $CLRHEAP_DAC} is searched for DACs ({@code DIR/npm/PACKAGE/dist/FILE} is 4). */
    public static final int MAX_DEPTH = 6;
    /** How many files and folders such a search visits at most (a folder given by mistake, such as {@code /}, must not take long). */
    public static final int MAX_ENTRIES = 100_000;

    /** A DAC of the build, found, and how (e.g. {@code --dac}, {@code $CLRHEAP_DAC}, {@code beside the dump's runtime module}). */
    public record Located(Path path, DacBuild build, String how) {
    }

    /** A file named like a DAC that is not one of the build: its build, or why it is no DAC at all. */
    public record Seen(Path path, String how, Optional<DacBuild> build, String problem) {

        @Override
        public String toString() {
            return build.map(b -> ".NET " + b + " at " + path).orElse(path + " (" + problem + ")") + " (" + how + ")";
        }
    }

    private final Map<String, String> environment;

    public DacLocator(Map<String, String> environment) {
        this.environment = environment;
    }

    /**
     * The DAC of {@code target}'s build ({@link DumpBuild#of(Target)}), located, opened and checked.
     *
     * @param given {@code --dac}, when given: then only there
     */
    public DacEngine engineFor(Optional<Path> given, Target target) throws DacException, IOException {
        DumpBuild build = DumpBuild.of(target);
        Located located = locate(given, build, target.module().path());
        DacEngine engine = DacEngine.open(located.path(), located.how());
        engine.requireBuild(build);
        return engine;
    }

    /** As {@link #locate(Optional, DumpBuild, String)} for a build known by its runtime version alone. */
    public Located locate(Optional<Path> given, String runtimeVersion, String runtimeModulePath) throws DacException {
        return locate(given, DumpBuild.ofVersion(runtimeVersion), runtimeModulePath);
    }

    /**
     * The DAC for a dump of {@code build} whose runtime module was at {@code runtimeModulePath} in the dumped process
     * (null or a bare name when unknown).
     *
     * @throws DacException when {@code given} holds no DAC of the build (naming the builds it holds), or when no place
     *                      does (naming every place looked at and the DACs of other builds seen)
     */
    public Located locate(Optional<Path> given, DumpBuild build, String runtimeModulePath) throws DacException {
        if (given.isPresent()) {
            return inGiven(given.get(), build);
        }
        List<String> looked = new ArrayList<>();
        List<Seen> seen = new ArrayList<>();
        String variable = environment.get(ENVIRONMENT_VARIABLE);
        if (variable != null && !variable.isBlank()) {
            Path p = Path.of(variable);
            String how = "$" + ENVIRONMENT_VARIABLE;
            if (Files.isDirectory(p)) {
                List<Path> dacs = dacsIn(p, looked, how);
                Optional<Located> found = firstOfBuild(dacs, build, how, seen);
                if (found.isPresent()) {
                    return found.get();
                }
                if (dacs.isEmpty()) {
                    looked.add(how + " (" + p + ": no " + FILE_NAME + " in it)");
                }
            } else if (Files.isRegularFile(p)) {
                Optional<Located> found = firstOfBuild(List.of(p), build, how, seen);
                if (found.isPresent()) {
                    return found.get();
                }
            } else {
                looked.add(how + " (" + p + ": no such file)");
            }
        }
        if (runtimeModulePath != null && runtimeModulePath.startsWith("/")) {
            Path beside = Path.of(runtimeModulePath).resolveSibling(FILE_NAME);
            Optional<Located> found = candidate(beside, build, "beside the dump's runtime module", looked, seen);
            if (found.isPresent()) {
                return found.get();
            }
        }
        LinkedHashSet<Path> roots = new LinkedHashSet<>();
        String dotnetRoot = environment.get("DOTNET_ROOT");
        if (dotnetRoot != null && !dotnetRoot.isBlank()) {
            roots.add(Path.of(dotnetRoot));
        }
        String home = environment.get("HOME");
        if (home != null && !home.isBlank()) {
            roots.add(Path.of(home, ".dotnet"));
        }
        roots.add(Path.of("/usr/share/dotnet"));
        roots.add(Path.of("/usr/lib/dotnet"));
        for (Path root : roots) {
            Path file = root.resolve("shared").resolve("Microsoft.NETCore.App").resolve(build.version()).resolve(FILE_NAME);
            String how = dotnetRoot != null && root.equals(Path.of(dotnetRoot)) ? "$DOTNET_ROOT" : "the .NET install at " + root;
            Optional<Located> found = candidate(file, build, how, looked, seen);
            if (found.isPresent()) {
                return found.get();
            }
        }
        StringBuilder message = new StringBuilder("no DAC (" + FILE_NAME + ") of .NET " + build + " found");
        if (!seen.isEmpty()) {
            message.append("; seen: ").append(String.join(", ", seen.stream().map(Seen::toString).toList()));
        }
        if (!looked.isEmpty()) {
            message.append("; looked at: ").append(String.join(", ", looked));
        }
        message.append(". Give one with --dac PATH (the DAC, or a folder holding DACs of several builds; it ships beside "
                + "libcoreclr.so in every .NET runtime folder and every self-contained application of the build)");
        throw new DacException(message.toString());
    }

    /** {@code --dac PATH}: a DAC of the build, or a folder holding one; nowhere else. */
    private Located inGiven(Path p, DumpBuild build) throws DacException {
        if (Files.isRegularFile(p)) {
            DacBuild dac;
            try {
                dac = DacBuild.of(p).orElseThrow(() -> new DacException(p + " has no @(#)Version string: not a DAC ("
                        + FILE_NAME + ") of a .NET runtime"));
            } catch (IOException e) {
                throw new DacException("--dac " + p + ": " + e.getMessage(), e);
            }
            if (!build.matches(dac)) {
                throw new DacException(mismatch(p, dac, build));
            }
            return new Located(p, dac, "--dac");
        }
        if (!Files.isDirectory(p)) {
            throw new DacException("--dac " + p + ": no such file");
        }
        List<String> looked = new ArrayList<>();
        List<Seen> seen = new ArrayList<>();
        List<Path> dacs = dacsIn(p, looked, "--dac");
        Optional<Located> found = firstOfBuild(dacs, build, "--dac", seen);
        if (found.isPresent()) {
            return found.get();
        }
        if (dacs.isEmpty()) {
            throw new DacException(p + ": no " + FILE_NAME + " in it (nor in its subfolders, " + MAX_DEPTH + " levels deep)"
                    + (looked.isEmpty() ? "" : "; " + String.join(", ", looked)));
        }
        throw new DacException(p + " holds no DAC of .NET " + build + ", the dump's runtime; it holds: "
                + String.join(", ", seen.stream().map(s -> s.build().map(b -> ".NET " + b + " at " + s.path())
                        .orElse(s.path() + " (" + s.problem() + ")")).toList())
                + ". A DAC reads only dumps of its own build: give the " + FILE_NAME + " of .NET " + build.version());
    }

    /** The message refusing DAC {@code path} of build {@code dac} for a dump of {@code dump}, naming both builds. */
    static String mismatch(Path path, DacBuild dac, DumpBuild dump) {
        return "the DAC " + path + " is .NET " + dac + "; the dump's runtime is .NET " + dump
                + ": a DAC reads only dumps of its own build; use the " + FILE_NAME + " of .NET " + dump.version();
    }

    private static Optional<Located> candidate(Path file, DumpBuild build, String how, List<String> looked, List<Seen> seen) {
        if (!Files.isRegularFile(file)) {
            looked.add(file.toString());
            return Optional.empty();
        }
        return firstOfBuild(List.of(file), build, how, seen);
    }

    /** The first of {@code files} that is a DAC of {@code build}; the others go to {@code seen}. */
    private static Optional<Located> firstOfBuild(List<Path> files, DumpBuild build, String how, List<Seen> seen) {
        for (Path file : files) {
            Optional<DacBuild> dac;
            try {
                dac = DacBuild.of(file);
            } catch (IOException e) {
                seen.add(new Seen(file, how, Optional.empty(), "unreadable: " + e.getMessage()));
                continue;
            }
            if (dac.isEmpty()) {
                seen.add(new Seen(file, how, Optional.empty(), "no @(#)Version string: not a DAC"));
            } else if (build.matches(dac.get())) {
                return Optional.of(new Located(file, dac.get(), how));
            } else {
                seen.add(new Seen(file, how, dac, ""));
            }
        }
        return Optional.empty();
    }

    /**
     * Every {@code libmscordaccore.so} in {@code folder} and its subfolders (at most {@link #MAX_DEPTH} deep, at most
     * {@link #MAX_ENTRIES} entries visited, symbolic links to folders not followed): the folder's own first, then by
     * depth and path, so that the same folder always gives the same answer.
     */
    static List<Path> dacsIn(Path folder, List<String> notes, String how) {
        List<Path> found = new ArrayList<>();
        int[] visited = {0};
        boolean[] cut = {false};
        try {
            Files.walkFileTree(folder, Set.of(), MAX_DEPTH, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return count();
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (file.getFileName().toString().equals(FILE_NAME) && Files.isRegularFile(file)) {
                        found.add(file);
                    }
                    return count();
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // a folder this user cannot read holds nothing we can use
                }

                private FileVisitResult count() {
                    if (++visited[0] > MAX_ENTRIES) {
                        cut[0] = true;
                        return FileVisitResult.TERMINATE;
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            notes.add(how + " " + folder + ": " + e.getMessage());
        }
        if (cut[0]) {
            notes.add(how + " " + folder + ": searched only its first " + MAX_ENTRIES + " entries");
        }
        found.sort(Comparator.<Path>comparingInt(Path::getNameCount).thenComparing(Path::toString));
        return found;
    }
}
