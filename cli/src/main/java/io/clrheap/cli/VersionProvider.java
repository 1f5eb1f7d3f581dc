package io.clrheap.cli;

import io.clrheap.generator.ClrheapVersion;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeLayout;
import io.clrheap.layout.RuntimeVersion;
import io.clrheap.layout.profile.ProfileLoader;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** {@code --version}: the clrheap version and the runtime builds its profiles describe. */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        List<String> lines = new ArrayList<>();
        lines.add("clrheap " + ClrheapVersion.current());
        ProfileLoader loader = ProfileLoader.builtIn();
        StringBuilder builds = new StringBuilder("runtime profiles (linux-x64, server and workstation GC):");
        for (RuntimeVersion v : RuntimeVersion.values()) {
            RuntimeLayout layout = loader.load(v, GcFlavor.SERVER);
            builds.append(' ').append(v.shortName()).append(" (");
            builds.append(String.join(", ", layout.builds().stream().map(b -> b.version()).toList())).append(')');
        }
        lines.add(builds.toString());
        lines.add("java " + Runtime.version());
        return lines.toArray(String[]::new);
    }
}
