package io.clrheap.cli;

import io.clrheap.emulator.scenario.Scenario;
import io.clrheap.emulator.ScenarioJson;
import io.clrheap.emulator.Scenarios;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves {@code --scenario NAME|FILE}: a built-in scenario's name, or a scenario JSON file (docs/scenarios.md); for
 * {@code generate}, also {@code all}: every built-in everyday scenario and the segments GC's ({@link Scenarios#corpus()}).
 */
final class ScenarioOption {

    /** A scenario file larger than this is not a scenario (they are a few KiB). */
    private static final long MAX_FILE = 1 << 20;

    private ScenarioOption() {
    }

    /** The word of {@code generate --scenario} that stands for every built-in everyday scenario. */
    static final String ALL = "all";

    /**
     * Each of {@code values} resolved in order, {@code all} as every built-in everyday scenario (not {@code large} and
     * {@code scale-64}, which exist for measurements), in the order {@code ./clrheap scenarios} lists them.
     *
     * @throws IllegalArgumentException as {@link #resolve(String)}, for the first value that is wrong
     */
    static List<Scenario> resolveEach(List<String> values) throws IOException {
        List<Scenario> resolved = new ArrayList<>();
        for (String value : values) {
            if (value.equalsIgnoreCase(ALL)) {
                resolved.addAll(Scenarios.corpus());
            } else {
                resolved.add(resolve(value));
            }
        }
        return List.copyOf(resolved);
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
