package io.clrheap.conformance.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.emulator.module.Platform;
import io.clrheap.generator.fixture.FixtureFormat;
import io.clrheap.layout.GcFlavor;
import io.clrheap.layout.RuntimeVersion;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A golden fixture's folder names its runtime, platform and GC flavour, and decides its file and its Linux twin. */
class GoldenFixtureTest {

    @Test
    void aLinuxFixtureIsABundleAndItsOwnTwin() {
        GoldenFixture f = GoldenFixture.of("default", RuntimeVersion.NET8, GcFlavor.SERVER);

        assertThat(f.folder()).isEqualTo("net8-server");
        assertThat(f.platform()).isEqualTo(Platform.LINUX);
        assertThat(f.format()).isEqualTo(FixtureFormat.BUNDLE);
        assertThat(f.file(Path.of("c"))).isEqualTo(Path.of("c", "net8-server", "default.clrheap.tar.xz"));
        assertThat(f.linuxTwin()).isSameAs(f);
    }

    @Test
    void aWindowsFixtureIsACompressedMinidumpWhoseTwinIsTheLinuxFixtureOfItsRuntimeAndGc() {
        GoldenFixture f = GoldenFixture.of("every-edge", RuntimeVersion.NET10, Platform.WINDOWS, GcFlavor.WORKSTATION);

        assertThat(f.id()).isEqualTo("net10-windows-workstation/every-edge");
        assertThat(f.runtime()).contains(RuntimeVersion.NET10);
        assertThat(f.gc()).isEqualTo(GcFlavor.WORKSTATION);
        assertThat(f.format()).isEqualTo(FixtureFormat.MINIDUMP);
        assertThat(f.path()).isEqualTo("net10-windows-workstation/every-edge.dmp.xz");
        assertThat(f.linuxTwin()).isEqualTo(GoldenFixture.of("every-edge", RuntimeVersion.NET10, GcFlavor.WORKSTATION));
    }

    @Test
    void aCorpusPathNamesAFixtureOnlyWithItsPlatformsSuffix() {
        assertThat(GoldenFixture.ofPath("net8-windows-server/default.dmp.xz")).contains(GoldenFixture.of("default", RuntimeVersion.NET8, Platform.WINDOWS, GcFlavor.SERVER));
        assertThat(GoldenFixture.ofPath("net8-server/default.clrheap.tar.xz")).contains(GoldenFixture.of("default", RuntimeVersion.NET8, GcFlavor.SERVER));
        assertThat(GoldenFixture.ofPath("net8-windows-server/default.clrheap.tar.xz")).isEmpty();
        assertThat(GoldenFixture.ofPath("net8-server/default.dmp.xz")).isEmpty();
        assertThat(GoldenFixture.ofPath("net8-linux-server/default.clrheap.tar.xz")).isEmpty();
        assertThat(GoldenFixture.ofPath("default.clrheap.tar.xz")).isEmpty();
        assertThat(GoldenFixture.ofPath("net8-server/.hidden.clrheap.tar.xz")).isEmpty();
    }

    @Test
    void aFolderIsRuntimeOptionallyWindowsAndGc() {
        assertThat(GoldenFixture.isFolderName("net10-windows-server")).isTrue();
        assertThat(GoldenFixture.isFolderName("net10-server")).isTrue();
        assertThat(GoldenFixture.isFolderName("net10-server-windows")).isFalse();
        assertThatThrownBy(() -> new GoldenFixture("windows-net8-server", "default")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("<runtime>-windows-<gc>");
    }
}
