package io.clrheap.conformance;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A fixture of a conformance suite before its turn: its name, what it is there to catch, and how its dump and answer
 * key are made ready — at once for a folder {@code clrheap generate} wrote ({@link Fixture}), written into a work
 * folder for others (a golden corpus fixture's answer key from its bundle, or an ELF core built again).
 */
public interface SuiteFixture {

    /** Its name in reports: {@code default}, {@code net8-server/default}. */
    String name();

    /** What it holds and which walker mistake it is there to catch (its fixture.txt line). */
    String about();

    /**
     * Its dump and answer key, ready to check. Files it has to write go into {@code work}, an empty folder of its own
     * that is deleted after the check.
     *
     * @throws IOException when the fixture cannot be made ready (the message says what and where); the fixture fails
     */
    Fixture prepare(Path work) throws IOException;
}
