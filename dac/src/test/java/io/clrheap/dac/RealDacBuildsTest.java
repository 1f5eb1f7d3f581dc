package io.clrheap.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.dac.TestDac.Build;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.walk.DacWalkKind;
import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import io.clrheap.walker.source.elf.ElfCore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Microsoft's DACs of three .NET 9 builds (9.0.1, 9.0.5, 9.0.7, from npm): each is the build its version string says,
 * is chosen from a folder of all three for a dump of its own build, and is refused for a dump of another, naming both
 * exact builds. (That each walks a process of its own build: {@code LiveDacBuildsTest} in the golden module.)
 */
class RealDacBuildsTest {

    /** The three DACs, one folder per build, as a user keeps them: {@code DIR/9.0.1/libmscordaccore.so} ... */
    private static Path folderOfAll(Path dir) throws Exception {
        for (Map.Entry<Build, Path> e : TestDac.all().entrySet()) {
            Path folder = Files.createDirectories(dir.resolve(e.getKey().version()));
            Files.copy(e.getValue(), folder.resolve(DacLocator.FILE_NAME));
        }
        return dir;
    }

    @ParameterizedTest
    @EnumSource(Build.class)
    void eachDacIsTheBuildItsPackageShips(Build build) throws Exception {
        DacEngine dac = DacEngine.open(TestDac.path(build));
        assertThat(dac.build()).isEqualTo(new DacBuild(build.fileVersion(), build.commit()));
        assertThat(dac.build().runtimeVersion()).isEqualTo(build.version());
    }

    @ParameterizedTest
    @EnumSource(Build.class)
    void eachBuildGetsItsOwnDacFromAFolderOfAll(Build build, @TempDir Path dir) throws Exception {
        Path all = folderOfAll(dir);
        DacLocator locator = new DacLocator(Map.of());
        for (DumpBuild asKnown : new DumpBuild[] {build.dumpBuild(), DumpBuild.ofVersion(build.version())}) {
            DacLocator.Located found = locator.locate(Optional.of(all), asKnown, null);
            assertThat(found.path()).isEqualTo(all.resolve(build.version()).resolve(DacLocator.FILE_NAME));
            assertThat(found.build()).isEqualTo(new DacBuild(build.fileVersion(), build.commit()));
            DacEngine engine = DacEngine.open(found.path(), found.how());
            engine.requireBuild(asKnown); // no exception: its own build
        }
        // and through $CLRHEAP_DAC, the same folder
        assertThat(new DacLocator(Map.of(DacLocator.ENVIRONMENT_VARIABLE, all.toString())).locate(Optional.empty(), build.dumpBuild(), null).path())
                .isEqualTo(all.resolve(build.version()).resolve(DacLocator.FILE_NAME));
    }

    @ParameterizedTest
    @EnumSource(Build.class)
    void eachDacRefusesTheOtherBuildsNamingBoth(Build build) throws Exception {
        DacEngine dac = DacEngine.open(TestDac.path(build));
        for (Build other : Build.values()) {
            if (other == build) {
                continue;
            }
            assertThatThrownBy(() -> dac.requireBuild(other.dumpBuild())).isInstanceOf(DacException.class)
                    .hasMessageContaining("is .NET " + build.version() + " (" + build.fileVersion() + ", commit " + build.commit().substring(0, 12) + ")")
                    .hasMessageContaining("the dump's runtime is .NET " + other.version() + " (" + other.fileVersion() + ", commit "
                            + other.commit().substring(0, 12) + ")");
            assertThatThrownBy(() -> dac.requireBuild(DumpBuild.ofVersion(other.version()))).isInstanceOf(DacException.class)
                    .hasMessageContaining("the dump's runtime is .NET " + other.version() + ":");
            assertThatThrownBy(() -> new DacLocator(Map.of()).locate(Optional.of(TestDac.path(build)), other.dumpBuild(), null))
                    .isInstanceOf(DacException.class).hasMessageContaining("a DAC reads only dumps of its own build");
        }
    }

    @Test
    void aFolderWithoutTheDumpsBuildNamesTheThreeItHolds(@TempDir Path dir) throws Exception {
        Path all = folderOfAll(dir);
        assertThatThrownBy(() -> new DacLocator(Map.of()).locate(Optional.of(all), DumpBuild.ofVersion("9.0.11"), null))
                .isInstanceOf(DacException.class).hasMessageContaining("holds no DAC of .NET 9.0.11")
                .hasMessageContaining(".NET 9.0.1 (9.0.124.61010, commit c8acea22626e) at " + all.resolve("9.0.1"))
                .hasMessageContaining(".NET 9.0.5 (9.0.525.21509, commit e36e4d1a8f8d) at " + all.resolve("9.0.5"))
                .hasMessageContaining(".NET 9.0.7 (9.0.725.31616, commit 3c298d9f0093) at " + all.resolve("9.0.7"));
    }

    @Test
    void aReal901DumpGetsThe901DacAndTheOthersAreRefusedBeforeLoading(@TempDir Path dir) throws Exception {
        Path all = folderOfAll(dir);
        Path core = Path.of("../golden/real/net9-wks/core.xz");
        try (ElfCore dump = ElfCore.open(core)) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            DacEngine chosen = new DacLocator(Map.of()).engineFor(Optional.of(all), target);
            assertThat(chosen.build().fileVersion()).isEqualTo(Build.NET_9_0_1.fileVersion());
            assertThat(chosen.how()).isEqualTo("--dac");
            for (Build other : new Build[] {Build.NET_9_0_5, Build.NET_9_0_7}) {
                DacEngine wrong = DacEngine.open(TestDac.path(other));
                assertThatThrownBy(() -> wrong.walk(core, target, DacWalkKind.SOS, (a, m, s, r) -> { }, DacEngine.DEFAULT_TIMEOUT))
                        .isInstanceOf(DacException.class).hasMessageContaining("is .NET " + other.version() + " (")
                        .hasMessageContaining("the dump's runtime is .NET 9.0.1");
            }
        }
    }
}
