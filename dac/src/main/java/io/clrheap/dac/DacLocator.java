package io.clrheap.dac;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.clrheap.dac.library.DacException;

/**
 * Finds the DAC for a dump the way a .NET user has one, in this order: the path given ({@code --dac}, a file or its
 * folder); {@code $CLRHEAP_DAC}; the folder of the runtime module the dump names (a dump opened on the machine it was
 * taken on); {@code $DOTNET_ROOT/shared/Microsoft.NETCore.App/VERSION/}; the usual install folders
 * ({@code ~/.dotnet}, {@code /usr/share/dotnet}, {@code /usr/lib/dotnet}). Never downloads anything.
 */
public final class DacLocator {

    public static final String FILE_NAME = "libmscordaccore.so";
    public static final String ENVIRONMENT_VARIABLE = "CLRHEAP_DAC";

    /** A DAC found, and how. */
    public record Located(Path path, String how) {
    }

    private final Map<String, String> environment;

    public DacLocator(Map<String, String> environment) {
        this.environment = environment;
    }

    /**
     * The DAC for a dump of runtime {@code runtimeVersion} whose runtime module was at {@code runtimeModulePath} in the
     * dumped process.
     *
     * @throws DacException naming every place looked at, when there is none
     */
    public Located locate(Optional<Path> given, String runtimeVersion, String runtimeModulePath) throws DacException {
        if (given.isPresent()) {
            Path p = given.get();
            Path file = Files.isDirectory(p) ? p.resolve(FILE_NAME) : p;
            if (!Files.isRegularFile(file)) {
                throw new DacException("--dac " + p + ": no such file" + (Files.isDirectory(p) ? " (" + file + ")" : ""));
            }
            return new Located(file, "--dac");
        }
        List<String> looked = new ArrayList<>();
        String variable = environment.get(ENVIRONMENT_VARIABLE);
        if (variable != null && !variable.isBlank()) {
            Path p = Path.of(variable);
            Path file = Files.isDirectory(p) ? p.resolve(FILE_NAME) : p;
            if (Files.isRegularFile(file)) {
                return new Located(file, "$" + ENVIRONMENT_VARIABLE);
            }
            looked.add("$" + ENVIRONMENT_VARIABLE + " (" + file + ": no such file)");
        }
        if (runtimeModulePath != null && runtimeModulePath.startsWith("/")) {
            Path beside = Path.of(runtimeModulePath).resolveSibling(FILE_NAME);
            if (Files.isRegularFile(beside)) {
                return new Located(beside, "beside the dump's runtime module");
            }
            looked.add(beside.toString());
        }
        java.util.LinkedHashSet<Path> roots = new java.util.LinkedHashSet<>();
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
            Path file = root.resolve("shared").resolve("Microsoft.NETCore.App").resolve(runtimeVersion).resolve(FILE_NAME);
            if (Files.isRegularFile(file)) {
                return new Located(file, dotnetRoot != null && root.equals(Path.of(dotnetRoot)) ? "$DOTNET_ROOT" : "the .NET install at " + root);
            }
            looked.add(file.toString());
        }
        throw new DacException("no DAC (" + FILE_NAME + ") for .NET " + runtimeVersion + " found; looked at: " + String.join(", ", looked)
                + ". Give one with --dac PATH (it ships beside libcoreclr.so in every .NET runtime folder).");
    }
}
