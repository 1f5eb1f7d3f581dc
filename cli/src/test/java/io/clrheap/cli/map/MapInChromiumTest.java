package io.clrheap.cli.map;

import static org.assertj.core.api.Assertions.assertThat;

import io.clrheap.cli.ClrheapCommand;
import io.clrheap.generator.ExternalTool;
import io.clrheap.cli.map.AnswerKeyFiles.ObjectRow;
import io.clrheap.cli.map.AnswerKeyFiles.RegionRow;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page {@code clrheap map} writes, loaded from a file by a real browser (headless Chromium): it draws without
 * errors, holds an element per region and per type as the answer key has them, opens a region's zoomed view from
 * {@code #region=0x…}, and looks like something (the screenshots are kept under target/map-screenshots/).
 */
class MapInChromiumTest {

    static final Path SCREENSHOTS = Path.of("target", "map-screenshots");
    static final Path NET8_SERVER = Path.of("..", "golden", "real", "net8-svr");

    @TempDir
    static Path dir;

    static HeadlessChromium chromium;
    static MapFixture fixture;
    static Path page;

    @BeforeAll
    static void drawEveryEdge() throws Exception {
        chromium = new HeadlessChromium(ExternalTool.CHROMIUM.require(), Files.createDirectories(dir.resolve("profile")));
        fixture = MapFixture.generate("every-edge", dir);
        page = map(fixture.bundle, "every-edge.html");
    }

    @Test
    void everyEdgeDrawsEveryRegionAndEveryTypeWithoutErrors() throws Exception {
        HeadlessChromium.Run run = chromium.dumpDom(page.toUri());
        assertReadyWithoutErrors(run);
        assertThat(count(run.stdout(), " data-region=\"")).isEqualTo(AnswerKeyFiles.regions(fixture.answer).size());
        assertThat(count(run.stdout(), "<li class=\"legend-entry\"")).isEqualTo(AnswerKeyFiles.stat(fixture.answer.resolve("dumpheap-stat.txt")).size());
        assertThat(count(run.stdout(), "class=\"region frozen\"")).as("every-edge has a frozen segment, marked").isEqualTo(1);
    }

    @Test
    void aScreenshotOfThePageIsKept() throws Exception {
        Path png = SCREENSHOTS.resolve("every-edge.png");
        Files.deleteIfExists(png);
        chromium.screenshot(page.toUri(), png);
        assertThat(png).exists();
        assertThat(Files.size(png)).isGreaterThan(10_000);
    }

    @Test
    void hashRegionOpensThatRegionWithEveryObjectDrawn() throws Exception {
        RegionRow gen0 = AnswerKeyFiles.regions(fixture.answer).stream().filter(r -> r.generation().equals("gen0")).findFirst().orElseThrow();
        List<ObjectRow> inside = AnswerKeyFiles.objectsIn(AnswerKeyFiles.objects(fixture.answer), gen0.mem(), gen0.end());
        URI zoomed = URI.create(page.toUri() + "#region=0x" + Long.toHexString(gen0.mem()));
        HeadlessChromium.Run run = chromium.dumpDom(zoomed);
        assertReadyWithoutErrors(run);
        String zoom = element(run.stdout(), "<div id=\"zoom\"");
        assertThat(zoom).contains("data-zoom-region=\"0x" + Long.toHexString(gen0.mem()) + "\"", "data-mode=\"objects\"",
                "data-objects=\"" + inside.size() + "\"");
        assertThat(count(run.stdout(), "<li class=\"zoom-type\"")).isEqualTo(inside.stream().map(ObjectRow::type).distinct().count());
        assertThat(run.stdout()).contains("<div id=\"overview\" hidden=\"\"");
        Path png = SCREENSHOTS.resolve("every-edge-zoomed.png");
        chromium.screenshot(zoomed, png);
        assertThat(Files.size(png)).isGreaterThan(10_000);
    }

    @Test
    void aRegionPastTheBudgetOpensAsBuckets() throws Exception {
        Path aggregated = map(fixture.bundle, "every-edge-aggregated.html", "--max-objects", "0");
        RegionRow gen2 = AnswerKeyFiles.regions(fixture.answer).stream().filter(r -> r.generation().equals("gen2")).findFirst().orElseThrow();
        HeadlessChromium.Run run = chromium.dumpDom(URI.create(aggregated.toUri() + "#region=0x" + Long.toHexString(gen2.mem())));
        assertReadyWithoutErrors(run);
        assertThat(element(run.stdout(), "<div id=\"zoom\"")).contains("data-mode=\"buckets\"");
        assertThat(run.stdout()).contains("aggregated: ");
    }

    @Test
    void aRealDumpWithItsNamesDrawsEveryRegionAndType() throws Exception {
        Path real = map(NET8_SERVER.resolve("core.xz"), "net8-svr.html", "--names", NET8_SERVER.resolve("live-objects.txt").toString());
        HeadlessChromium.Run run = chromium.dumpDom(real.toUri());
        assertReadyWithoutErrors(run);
        ClrheapCommand.Outcome eeheap = ClrheapCommand.run("walk", NET8_SERVER.resolve("core.xz").toString(), "--eeheap", "--json", "-q");
        assertThat(count(run.stdout(), " data-region=\"")).isEqualTo(count(eeheap.out(), "\"segment\"")).isPositive();
        assertThat(count(run.stdout(), "<li class=\"legend-entry\"")).isEqualTo(AnswerKeyFiles.stat(NET8_SERVER.resolve("expected/dumpheap-stat.txt")).size());
        Path png = SCREENSHOTS.resolve("net8-svr.png");
        chromium.screenshot(real.toUri(), png);
        assertThat(Files.size(png)).isGreaterThan(10_000);
    }

    private static Path map(Path dump, String name, String... more) {
        Path out = dir.resolve(name);
        List<String> args = new java.util.ArrayList<>(List.of("map", dump.toString(), "--html", out.toString(), "-q"));
        args.addAll(List.of(more));
        ClrheapCommand.Outcome r = ClrheapCommand.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return out;
    }

    private static void assertReadyWithoutErrors(HeadlessChromium.Run run) {
        String body = element(run.stdout(), "<body ");
        assertThat(body).as("the page drew").contains("data-ready=\"true\"");
        assertThat(body).as("errors the page recorded; #errors lists them:\n" + run.stdout()).contains("data-errors=\"0\"");
        assertThat(run.console()).as("console messages").isEmpty();
    }

    /** The start tag beginning with {@code start} (the first one). */
    private static String element(String dom, String start) {
        int at = dom.indexOf(start);
        assertThat(at).as("the DOM holds " + start).isNotNegative();
        return dom.substring(at, dom.indexOf('>', at) + 1);
    }

    private static long count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        long n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
