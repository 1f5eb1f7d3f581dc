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
            description = "Microsoft's DAC (libmscordaccore.so, or the runtime folder holding it) of the dump's runtime build. "
                    + "Without it: $CLRHEAP_DAC, the folder of the runtime module the dump names, "
                    + "$DOTNET_ROOT/shared/Microsoft.NETCore.App/VERSION/, ~/.dotnet, /usr/share/dotnet, /usr/lib/dotnet. Never downloaded.")
    Path dac;

    /** The DAC for {@code target}'s build, located and checked. */
    DacEngine engineFor(Target target) throws DacException, IOException {
        DacLocator.Located located = new DacLocator(System.getenv()).locate(Optional.ofNullable(dac), target.version(), target.module().path());
        DacEngine engine = DacEngine.open(located.path());
        engine.requireBuildOf(target);
        return engine;
    }

    /** Where the DAC was found, for a note. */
    static String describe(DacEngine engine) {
        return "DAC " + engine.build() + " at " + engine.path();
    }
}
