package io.clrheap.dac;

import io.clrheap.layout.BuildIdentity;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The build a runtime binary (the DAC, libcoreclr) says it is: its sccsid string {@code @(#)Version 9.0.124.61010
 * @Commit: c8acea22...}. The third part of the file version is the patch number times 100 plus a two-digit year
 * (9.0.124 is runtime 9.0.1, 9.0.725 is 9.0.7, 8.0.3026 is 8.0.30, 10.0.926 is 10.0.9), which gives the runtime
 * version that dumps are identified by.
 *
 * @param fileVersion the four-part file version, e.g. {@code 9.0.124.61010}
 * @param commit      the dotnet/runtime commit, or empty
 */
public record DacBuild(String fileVersion, String commit) {

    /** The sccsid string lies in .rodata; binaries are a few MB: read at most this much. */
    private static final long MAX_SCAN = 256L << 20;

    /** The runtime version this build is, e.g. {@code 9.0.1} for file version {@code 9.0.124.61010}. */
    public String runtimeVersion() {
        return identity().version();
    }

    /** The build this DAC is, as the layout model names builds (the same parse as a dump's runtime module). */
    public BuildIdentity identity() {
        return BuildIdentity.ofFileVersion(fileVersion, commit);
    }

    /** Reads the sccsid string of {@code binary}, or empty when it has none. */
    public static Optional<DacBuild> of(Path binary) throws IOException {
        if (Files.size(binary) > MAX_SCAN) {
            throw new IOException(binary + " is " + Files.size(binary) + " bytes: not a DAC (they are a few MB)");
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(binary)) {
            bytes = in.readAllBytes();
        }
        return find(new String(bytes, StandardCharsets.ISO_8859_1));
    }

    /** Finds the sccsid string in {@code text} (bytes read as ISO-8859-1). */
    static Optional<DacBuild> find(String text) {
        return BuildIdentity.findSccsid(text).map(f -> new DacBuild(f.identity().fileVersion(), f.identity().commit()));
    }

    @Override
    public String toString() {
        return identity().describe();
    }
}
