package io.clrheap.walker.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Outputs written in a hidden temporary folder appear only when committed, and are all removed when writing fails. */
class PendingFolderTest {

    @TempDir
    Path dir;

    @Test
    void aFailureRemovesEveryEntryAndTheMessageNamesThemByTheirFinalNames() throws IOException {
        try (PendingFolder staging = PendingFolder.in(dir, "x")) {
            Files.writeString(staging.entry("x.core"), "core");
            Files.createDirectory(staging.entry("x.answer"));
            IncompleteOutputException e = staging.failed(new IOException("No space left on device"));
            assertThat(e).hasMessage("No space left on device (removed the incomplete " + dir.resolve("x.core") + ", " + dir.resolve("x.answer") + "/)");
        }
        assertThat(listing(dir)).isEmpty();
    }

    @Test
    void committedEntriesAreMovedIntoPlaceReplacingAnOldFolderAndNothingElseIsLeft() throws IOException {
        Files.writeString(Files.createDirectory(dir.resolve("x.answer")).resolve("stale.tsv"), "old");
        List<Path> moved;
        try (PendingFolder staging = PendingFolder.in(dir, "x")) {
            Files.writeString(staging.entry("x.core"), "core");
            Files.writeString(Files.createDirectory(staging.entry("x.answer")).resolve("objects.tsv"), "new");
            assertThat(listing(dir)).filteredOn(name -> !name.equals("x.answer")).singleElement()
                    .satisfies(name -> assertThat(name).startsWith(".x.").endsWith(".partial"));
            moved = staging.commitEntries();
        }
        assertThat(moved).containsExactly(dir.resolve("x.core"), dir.resolve("x.answer"));
        assertThat(listing(dir)).containsExactlyInAnyOrder("x.core", "x.answer");
        assertThat(listing(dir.resolve("x.answer"))).containsExactly("objects.tsv");
    }

    @Test
    void aFolderBesideItsTargetBecomesItWhenCommittedAndIsRemovedWhenClosedUncommitted() throws IOException {
        Path target = dir.resolve("capture");
        try (PendingFolder folder = PendingFolder.beside(target)) {
            Files.writeString(folder.path().resolve("info.txt"), "half");
        }
        assertThat(listing(dir)).isEmpty();
        try (PendingFolder folder = PendingFolder.beside(target)) {
            Files.writeString(folder.path().resolve("info.txt"), "whole");
            folder.commit();
        }
        assertThat(listing(dir)).containsExactly("capture");
        assertThat(target.resolve("info.txt")).hasContent("whole");
    }

    @Test
    void anExceptionWhileWritingIntoAFolderBesideItsTargetNamesTheTarget() throws IOException {
        Path target = dir.resolve("run.answer");
        PendingFolder folder = PendingFolder.beside(target);
        Files.writeString(folder.path().resolve("objects.tsv"), "half");
        assertThatThrownBy(() -> {
            throw folder.failed(new IllegalStateException("the writer broke"));
        }).hasMessage("the writer broke (removed the incomplete " + target + "/)");
        assertThat(listing(dir)).isEmpty();
    }

    private static List<String> listing(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }
}
