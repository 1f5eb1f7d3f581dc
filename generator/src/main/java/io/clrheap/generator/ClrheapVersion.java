package io.clrheap.generator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of clrheap (the Maven project's), which fixture bundles record in their manifest: the command line,
 * the golden corpus and its tests must all write the same one for their bundles to be byte-identical.
 */
public final class ClrheapVersion {

    private ClrheapVersion() {
    }

    /**
     * This build's version, e.g. {@code 0.1.0}, read from the resource the build filters (cheap: read on each call, so
     * that a missing resource is an {@link IllegalStateException} where it is needed, not a failed class initialisation).
     */
    public static String current() {
        try (InputStream in = ClrheapVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                // the resource is written by the build (resources-filtered); without it every bundle would say "unknown"
                throw new IllegalStateException("io/clrheap/generator/version.properties is missing from the class path: build clrheap with Maven");
            }
            Properties p = new Properties();
            p.load(in);
            String version = p.getProperty("version");
            if (version == null || version.isBlank() || version.contains("${")) {
                throw new IllegalStateException("io/clrheap/generator/version.properties holds no version (was it filtered by the build?)");
            }
            return version.strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read io/clrheap/generator/version.properties", e);
        }
    }
}
