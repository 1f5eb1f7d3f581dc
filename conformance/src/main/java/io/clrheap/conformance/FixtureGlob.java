package io.clrheap.conformance;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.PatternSyntaxException;

/**
 * Which fixtures to take, by name: one or more globs ({@code *} within a name part, {@code **} across parts, {@code ?},
 * {@code [abc]}, {@code {a,b}}), matched against names such as {@code default} or {@code net8-server/default}. No glob
 * takes every fixture.
 *
 * @param globs the globs, as given; a name matching any is taken
 */
public record FixtureGlob(List<String> globs) {

    /** Every fixture. */
    public static final FixtureGlob ALL = new FixtureGlob(List.of());

    public FixtureGlob {
        globs = List.copyOf(globs);
        for (String g : globs) {
            if (g.isBlank()) {
                throw new IllegalArgumentException("an empty fixture glob; e.g. 'net8-server/*'");
            }
            try {
                FileSystems.getDefault().getPathMatcher("glob:" + g);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("the fixture glob '" + g + "' is not a glob: " + e.getDescription(), e);
            }
        }
    }

    /** Whether every fixture is taken. */
    public boolean all() {
        return globs.isEmpty();
    }

    /** Whether {@code name} ({@code default}, {@code net8-server/default}) is taken. */
    public boolean matches(String name) {
        if (globs.isEmpty()) {
            return true;
        }
        Path path = Path.of(name);
        for (String g : globs) {
            PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + g);
            if (m.matches(path)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return globs.isEmpty() ? "*" : String.join(" ", globs);
    }
}
