package io.clrheap.cli;

import io.clrheap.dac.DacEngine;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.DacLocator;
import io.clrheap.walker.runtime.Target;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --dac PATH}, and how the DAC is found without it (see {@link DacLocator}). */
final class DacOption {

    @Option(names = "--dac", paramLabel = "PATH",
            description = "Microsoft's DAC (libmscordaccore.so) of the dump's runtime build, or a folder holding it (a runtime "
                    + "folder, or DACs of several builds, e.g. one folder per build: the one of the dump's build is chosen by its version "
                    + "string). Without it: $CLRHEAP_DAC (the same), the folder of the runtime module the dump names, "
                    + "$DOTNET_ROOT/shared/Microsoft.NETCore.App/VERSION/, ~/.dotnet, /usr/share/dotnet, /usr/lib/dotnet. Never downloaded.")
    Path dac;

    /** The DAC of {@code target}'s exact build, located and checked. */
    DacEngine engineFor(Target target) throws DacException, IOException {
        return new DacLocator(System.getenv()).engineFor(Optional.ofNullable(dac), target);
    }

    /** Where the DAC was found, for a note. */
    static String describe(DacEngine engine) {
        return "DAC " + engine.build() + " at " + engine.path() + " (" + engine.how() + ")";
    }
}
