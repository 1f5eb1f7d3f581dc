package io.clrheap.golden.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every document a file of the repository cites is in the repository: each name ending in {@code .md} in code, help
 * text, scenarios, profiles, scripts and pages — with or without a path — is a file of the repository (relative to
 * the citing file, to a folder above it, or to the repository's root), unless it is part of a full https address of
 * an upstream document. A section it names ({@code docs/reference/discovery.md section 6},
 * {@code docs/reference/discovery.md §2}, {@code docs/reference/walker-semantics.md 6.1}) is a heading of that file.
 * No file mentions the research notes the reference pages were written from.
 *
 * <p>The files are those git tracks ({@code git ls-files}); without git, every file under the root but {@code .git/},
 * {@code target/} and {@code node_modules/}. Binary files (a NUL byte in their first 8 KiB) are skipped. The root is
 * {@code -Dclrheap.home=DIR}, else the nearest folder at or above the working folder holding {@code pom.xml} and
 * {@code golden/}.
 */
class DocumentReferencesTest {

    /** A document's name, with or without a path: {@code README.md}, {@code ../docs/scenarios.md}. */
    static final Pattern DOCUMENT = Pattern.compile("[A-Za-z0-9_./-]*[A-Za-z0-9_-]\\.md(?![A-Za-z0-9_])");
    /** A full https address; a document named inside one is upstream and not checked. */
    static final Pattern HTTPS = Pattern.compile("https://[^\\s)\\]>\"'`|<]+");
    /** A section of a named document: the three forms of the class comment. */
    static final Pattern SECTION = Pattern.compile(
            "([A-Za-z0-9_./-]*[A-Za-z0-9_-]\\.md)[`)\\]]*,?\\s*(?:§\\s*|sections?\\s+|(?=[0-9]+\\.[0-9]))([0-9]+(?:\\.[0-9]+)*[a-z]?)");
    /** A numbered heading: {@code ## 7. Edge cases}, {@code ### 2.10 The page}, {@code ### 7d. GcDacVars}. */
    static final Pattern HEADING = Pattern.compile("^#+\\s+([0-9]+(?:\\.[0-9]+)*[a-z]?)[.\\s]");
    /** The research notes the reference pages came from, which are not in the repository. */
    static final Pattern NOTES = Pattern.compile("\\.\\./shared|(?<![A-Za-z0-9_-])(?:design|style)\\.md(?![A-Za-z0-9_])");

    static Path root;
    static List<Path> files;

    @BeforeAll
    static void scan() throws IOException, InterruptedException {
        root = projectRoot();
        files = textFiles(root);
    }

    @Test
    void everyCitedDocumentIsAFileOfTheRepository() throws IOException {
        assertThat(files).as("the repository's text files").hasSizeGreaterThan(10);
        List<String> unresolved = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                unresolved.addAll(unresolvedDocuments(root, file, lines.get(i), i + 1));
            }
        }
        assertThat(unresolved)
                .withFailMessage("documents cited but not in the repository (give a repository path, or the full https address of an upstream document):%n%s",
                        String.join("\n", unresolved))
                .isEmpty();
    }

    @Test
    void everyCitedSectionIsAHeadingOfItsDocument() throws IOException {
        Map<Path, Set<String>> headings = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                List<int[]> addresses = addresses(line);
                Matcher m = SECTION.matcher(line);
                while (m.find()) {
                    if (insideAddress(addresses, m.start(1))) {
                        continue;
                    }
                    Path document = resolve(root, file, m.group(1), line, m.start(1));
                    if (document == null) {
                        continue; // reported by the test above
                    }
                    Set<String> numbers = headings.computeIfAbsent(document, DocumentReferencesTest::headingNumbers);
                    if (!numbers.contains(m.group(2))) {
                        missing.add(location(file, i + 1) + ": " + m.group(0) + " (" + root.relativize(document) + " has no heading " + m.group(2) + ")");
                    }
                }
            }
        }
        assertThat(missing).withFailMessage("sections cited but not in their document:%n%s", String.join("\n", missing)).isEmpty();
    }

    @Test
    void noFileMentionsTheResearchNotes() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = NOTES.matcher(lines.get(i));
                while (m.find()) {
                    found.add(location(file, i + 1) + ": " + m.group());
                }
            }
        }
        assertThat(found).withFailMessage("files mention notes that are not in the repository:%n%s", String.join("\n", found)).isEmpty();
    }

    @Test
    void aBareUpstreamFileNameIsCaught() {
        Path citing = root.resolve("capture/src/main/java/io/clrheap/capture/ipc/Example.java");
        String bare = "ipc-protocol" + ".md"; // spelled in two so that this file does not cite it
        assertThat(unresolvedDocuments(root, citing, " * the protocol (" + bare + ")", 7))
                .containsExactly("capture/src/main/java/io/clrheap/capture/ipc/Example.java:7: " + bare);
        assertThat(unresolvedDocuments(root, citing,
                " * https://github.com/dotnet/diagnostics/blob/main/documentation/design-docs/ipc-protocol.md; docs/ipc-protocol.md", 7))
                .isEmpty();
        assertThat(unresolvedDocuments(root, root.resolve("emulator/src/test/java/X.java"), "read(\"../docs/scenarios.md\")", 1)).isEmpty();
        assertThat(unresolvedDocuments(root, root.resolve("clrheap"), "-Dbench.out=\"$ROOT/BENCHMARKS.md\"", 1)).isEmpty();
    }

    /** The documents named on one line that are neither a repository file nor inside an https address, as {@code FILE:LINE: NAME}. */
    static List<String> unresolvedDocuments(Path root, Path file, String line, int number) {
        List<String> out = new ArrayList<>();
        List<int[]> addresses = addresses(line);
        Matcher m = DOCUMENT.matcher(line);
        while (m.find()) {
            if (!insideAddress(addresses, m.start()) && resolve(root, file, m.group(), line, m.start()) == null) {
                out.add(location(root, file, number) + ": " + m.group());
            }
        }
        return out;
    }

    /**
     * The file a name cited in {@code file} stands for: relative to the citing file's folder or to any folder above it up
     * to the root ({@code ../docs/scenarios.md} from a module's test, run in the module's folder); after a variable
     * ({@code $ROOT/BENCHMARKS.md}, {@code ${maven.multiModuleProjectDirectory}/BENCHMARKS.md}) relative to the root.
     */
    static Path resolve(Path root, Path file, String name, String line, int at) {
        String n = name;
        if (at > 0 && line.charAt(at - 1) == '$' && n.contains("/")) {
            n = n.substring(n.indexOf('/') + 1);
        }
        while (n.startsWith("/")) {
            n = n.substring(1);
        }
        for (Path dir = file.getParent(); dir != null && dir.startsWith(root); dir = dir.getParent()) {
            Path candidate = dir.resolve(n).normalize();
            if (candidate.startsWith(root) && Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static List<int[]> addresses(String line) {
        List<int[]> spans = new ArrayList<>();
        Matcher u = HTTPS.matcher(line);
        while (u.find()) {
            spans.add(new int[] {u.start(), u.end()});
        }
        return spans;
    }

    private static boolean insideAddress(List<int[]> spans, int at) {
        for (int[] s : spans) {
            if (at >= s[0] && at < s[1]) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> headingNumbers(Path document) {
        Set<String> numbers = new HashSet<>();
        try {
            for (String line : lines(document)) {
                Matcher h = HEADING.matcher(line);
                if (h.find()) {
                    numbers.add(h.group(1));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + document, e);
        }
        return numbers;
    }

    private static String location(Path file, int line) {
        return location(root, file, line);
    }

    private static String location(Path root, Path file, int line) {
        return root.relativize(file).toString().replace('\\', '/') + ":" + line;
    }

    private static List<String> lines(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8).lines().toList();
    }

    /** {@code -Dclrheap.home}, else the nearest folder at or above the working folder with pom.xml and golden/. */
    static Path projectRoot() {
        String home = System.getProperty("clrheap.home");
        if (home != null && !home.isBlank()) {
            return Path.of(home).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml")) && Files.isDirectory(dir.resolve("golden"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no folder with pom.xml and golden/ at or above " + System.getProperty("user.dir") + "; set -Dclrheap.home");
    }

    /** The tracked files ({@code git ls-files}), or every file but .git/, target/ and node_modules/; binary files left out. */
    static List<Path> textFiles(Path root) throws IOException, InterruptedException {
        List<Path> candidates = trackedFiles(root);
        if (candidates == null) {
            try (Stream<Path> walk = Files.walk(root)) {
                candidates = walk.filter(p -> {
                    for (Path part : root.relativize(p)) {
                        String s = part.toString();
                        if (s.equals(".git") || s.equals("target") || s.equals("node_modules")) {
                            return false;
                        }
                    }
                    return Files.isRegularFile(p);
                }).toList();
            }
        }
        List<Path> text = new ArrayList<>();
        for (Path p : candidates) {
            if (Files.isRegularFile(p) && !binary(p)) {
                text.add(p);
            }
        }
        return text;
    }

    private static List<Path> trackedFiles(Path root) throws InterruptedException {
        try {
            Process git = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out;
            try (InputStream in = git.getInputStream()) {
                out = in.readAllBytes();
            }
            if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
                git.destroyForcibly();
                return null;
            }
            List<Path> files = new ArrayList<>();
            for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
                if (!name.isEmpty()) {
                    files.add(root.resolve(name));
                }
            }
            return files.isEmpty() ? null : files;
        } catch (IOException e) {
            return null; // no git: walk the tree
        }
    }

    private static boolean binary(Path p) throws IOException {
        byte[] head = new byte[8192];
        int n;
        try (InputStream in = Files.newInputStream(p)) {
            n = in.readNBytes(head, 0, head.length);
        }
        for (int i = 0; i < n; i++) {
            if (head[i] == 0) {
                return true;
            }
        }
        return false;
    }
}
