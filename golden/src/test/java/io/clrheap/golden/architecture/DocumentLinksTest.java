package io.clrheap.golden.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every link of the README and of the pages under docs/ leads somewhere: a relative link names a file or folder of the
 * repository, and its {@code #anchor} a heading of that page (GitHub's anchors: lower case, punctuation dropped, spaces
 * as hyphens). The README became a start page and its sections pages of docs/ (issue 30); a link left pointing at a
 * section that moved fails here.
 */
class DocumentLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    static String anchor(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        boolean code = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (!code && line.matches("#{1,6} .*")) {
                anchors.add(anchor(line.replaceFirst("^#+ ", "")));
            }
        }
        return anchors;
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    @Test
    void everyLinkOfTheReadmeAndTheDocsLeadsToAFileAndHeading() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            boolean code = false;
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("```")) {
                    code = !code;
                    continue;
                }
                Matcher m = LINK.matcher(line);
                while (!code && m.find()) {
                    String target = m.group(1);
                    if (target.matches("[a-z]+:.*")) {
                        continue; // https:, mailto:
                    }
                    String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                    String fragment = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                    Path to = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                    String where = ROOT.relativize(page) + ":" + (i + 1) + " " + target;
                    if (!Files.exists(to)) {
                        broken.add(where + ": no such file");
                    } else if (fragment != null && to.toString().endsWith(".md") && !anchors(to).contains(fragment)) {
                        broken.add(where + ": no such heading in " + ROOT.relativize(to));
                    }
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    @Test
    void anAnchorIsSpelledAsGitHubSpellsIt() {
        assertThat(anchor("The object graph: references, roots, `gcroot`, `objsize`, `--live`"))
                .isEqualTo("the-object-graph-references-roots-gcroot-objsize---live");
        assertThat(anchor("Reading a dump with Microsoft's DAC")).isEqualTo("reading-a-dump-with-microsofts-dac");
    }

    @Test
    void theReadmeIsAStartPage() throws IOException {
        List<String> readme = Files.readAllLines(ROOT.resolve("README.md"));
        assertThat(readme).as("README.md: what it is, quick start, the commands, links; the rest in docs/").hasSizeLessThan(150)
                .contains("## Quick start", "## The commands").anyMatch(l -> l.contains("(docs/README.md)"));
    }
}
