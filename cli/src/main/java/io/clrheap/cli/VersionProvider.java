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
        StringBuilder builds = new StringBuilder("runtime builds (linux-x64, server and workstation GC):");
        for (RuntimeVersion v : RuntimeVersion.values()) {
            RuntimeLayout layout = loader.load(v, GcFlavor.SERVER);
            // the reference build (what --runtime netN emulates) first, then the others newest first
            String reference = layout.primaryBuild().version();
            builds.append(' ').append(v.shortName()).append(" (").append(reference);
            layout.builds().stream().map(b -> b.version()).filter(b -> !b.equals(reference))
                    .sorted((a, b) -> io.clrheap.layout.BuildIdentity.compareVersions(b, a)).forEach(b -> builds.append(", ").append(b));
            builds.append(')');
        }
        lines.add(builds.toString());
        lines.add("java " + Runtime.version());
        return lines.toArray(String[]::new);
    }
}
