package io.clrheap.cli;

import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.ScenarioJson;
import io.clrheap.emulator.Scenarios;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Resolves {@code --scenario NAME|FILE}: a built-in scenario's name, or a scenario JSON file (docs/scenarios.md). */
final class ScenarioOption {

    /** A scenario file larger than this is not a scenario (they are a few KiB). */
    private static final long MAX_FILE = 1 << 20;

    private ScenarioOption() {
    }

    /**
     * @throws IllegalArgumentException naming the file and key when a JSON scenario is wrong, or listing the built-in
     *                                  names when neither a name nor a file matches
     */
    static Scenario resolve(String value) throws IOException {
        var builtIn = Scenarios.named(value);
        if (builtIn.isPresent()) {
            return builtIn.get();
        }
        Path file = Path.of(value);
        if (Files.isRegularFile(file)) {
            if (Files.size(file) > MAX_FILE) {
                throw new IllegalArgumentException(file + ": " + Files.size(file) + " bytes is too large for a scenario file");
            }
            String text;
            try {
                text = Files.readString(file, StandardCharsets.UTF_8);
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new IllegalArgumentException(file + ": not UTF-8 text, so not a scenario file");
            }
            return ScenarioJson.read(text, file.toString());
        }
        throw new IllegalArgumentException("no built-in scenario named '" + value + "' and no such file (./clrheap scenarios lists the built-in ones)");
    }
}
