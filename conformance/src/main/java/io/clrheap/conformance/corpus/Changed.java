package io.clrheap.conformance.corpus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The fixture in the corpus differs from a fresh build.
 *
 * @param fixture the fixture
 * @param dump    how its file (the bundle or the compressed minidump) differs, when it does
 * @param files   how each differing expected file differs, by file name
 * @param before  the committed heap's objects and bytes (empty when its dumpheap-stat.txt is missing or unreadable)
 * @param after   the fresh heap's objects and bytes
 */
public record Changed(GoldenFixture fixture, Optional<DumpDifference> dump, List<FileDifference> files, Optional<ObjectTotals> before,
                      ObjectTotals after) implements FixtureOutcome {

    public Changed {
        files = List.copyOf(files);
        if (dump.isEmpty() && files.isEmpty()) {
            throw new IllegalArgumentException(fixture.id() + ": a changed fixture has a differing file or expected file");
        }
    }

    /** {@code bundle ...; eeheap.txt: ...; 10,001 -> 10,003 objects, 1,234 -> 1,300 bytes} ({@code minidump ...} for a Windows fixture). */
    @Override
    public String summary() {
        List<String> parts = new ArrayList<>();
        dump.ifPresent(d -> parts.add(d.describe()));
        files.forEach(f -> parts.add(f.describe()));
        if (before.isEmpty()) {
            parts.add("now " + after.describe());
        } else if (!before.get().equals(after)) {
            ObjectTotals b = before.get();
            parts.add(String.format(Locale.ROOT, "%,d -> %,d objects, %,d -> %,d bytes", b.objects(), after.objects(), b.bytes(), after.bytes()));
        }
        return String.join("; ", parts);
    }
}
