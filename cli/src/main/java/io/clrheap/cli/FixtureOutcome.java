package io.clrheap.cli;

import io.clrheap.generator.fixture.FixtureName;

/**
 * What became of one fixture of a {@code clrheap generate} batch.
 *
 * @param name     the name its files share
 * @param exitCode 0 written and read back as its answer key says; 1 a failure (a file could not be written, the walker
 *                 or the DAC disagrees with the answer key); 3 not built (the machine cannot hold it, or the emulator
 *                 cannot build it)
 * @param bytes    the bytes of the files written (the answer key's files included); 0 when none were
 * @param agrees   every written dump read back as the answer key says
 */
record FixtureOutcome(FixtureName name, int exitCode, long bytes, boolean agrees) {

    /** Whether the emulator built the fixture (whatever became of its files): not refused, and not a scenario it cannot build. */
    boolean built() {
        return exitCode != GenerateCommand.EXIT_INVALID_INPUT;
    }
}
