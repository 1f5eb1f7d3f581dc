package io.clrheap.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.layout.profile.ProfileLoader;
import io.clrheap.walker.source.elf.ElfCore;
import io.clrheap.walker.runtime.Target;
import io.clrheap.walker.runtime.TargetOpener;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.clrheap.dac.library.DacException;
import io.clrheap.dac.walk.DacWalkKind;

/** A DAC reads only dumps of its own build: the build comes from its sccsid string, a mismatch is refused by name. */
class DacBuildTest {

    @Test
    void theRuntimeVersionIsTheFileVersionsPatchOverAHundred() {
        assertThat(new DacBuild("9.0.124.61010", "").runtimeVersion()).isEqualTo("9.0.1");
        assertThat(new DacBuild("9.0.725.31616", "").runtimeVersion()).isEqualTo("9.0.7");
        assertThat(new DacBuild("8.0.3026.36720", "").runtimeVersion()).isEqualTo("8.0.30");
        assertThat(new DacBuild("10.0.926.27113", "").runtimeVersion()).isEqualTo("10.0.9");
    }

    @Test
    void theSccsidStringIsFoundAmongOtherBytes() {
        assertThat(DacBuild.find("\0\1junk@(#)Version 9.0.124.61010 @Commit: c8acea22626efab11c13778c028975acdc34678f\0more"))
                .contains(new DacBuild("9.0.124.61010", "c8acea22626efab11c13778c028975acdc34678f"));
        assertThat(DacBuild.find("no version here")).isEmpty();
    }

    @Test
    void theFetchedDacIsThe901Build() throws Exception {
        assertThat(DacEngine.open(TestDac.path()).build().fileVersion()).isEqualTo(TestDac.FILE_VERSION);
    }

    @Test
    void aFileWithoutAVersionIsNotADac(@TempDir Path dir) throws Exception {
        Path notDac = Files.writeString(dir.resolve("libmscordaccore.so"), "\u007fELF nothing else");
        assertThatThrownBy(() -> DacEngine.open(notDac)).isInstanceOf(DacException.class).hasMessageContaining("not a DAC");
    }

    @Test
    void aLibraryWithTheVersionStringButNotTheDacsExportsIsRefused(@TempDir Path dir) throws Exception {
        // as libcoreclr.so is: the runtime's own sccsid string, but none of CLRDataCreateInstance, DacDbiInterfaceInstance
        Path library = dir.resolve("libcoreclr.so");
        Files.copy(Path.of(System.getProperty("java.home"), "lib", "libjava.so"), library);
        Files.write(library, "\0@(#)Version 9.0.124.61010 @Commit: c8acea22626e\0".getBytes(StandardCharsets.ISO_8859_1),
                java.nio.file.StandardOpenOption.APPEND);
        assertThatThrownBy(() -> DacEngine.open(library)).isInstanceOf(DacException.class)
                .hasMessageContaining("does not export CLRDataCreateInstance").hasMessageContaining("the DAC lies beside libcoreclr.so");
    }

    @Test
    void aDacOfAnotherBuildIsRefusedNamingBothBuilds(@TempDir Path dir) throws Exception {
        // the 9.0.1 DAC with its version string rewritten to 9.0.7's (same length)
        byte[] bytes = Files.readAllBytes(TestDac.path());
        String text = new String(bytes, StandardCharsets.ISO_8859_1).replace("@(#)Version 9.0.124.61010", "@(#)Version 9.0.725.31616");
        Path other = Files.write(dir.resolve("libmscordaccore.so"), text.getBytes(StandardCharsets.ISO_8859_1));
        DacEngine dac = DacEngine.open(other);
        try (ElfCore dump = ElfCore.open(Path.of("../golden/real/net9-wks/core.xz"))) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            assertThatThrownBy(() -> dac.requireBuildOf(target)).isInstanceOf(DacException.class)
                    .hasMessageContaining("9.0.7 (9.0.725.31616").hasMessageContaining("the dump's runtime is .NET 9.0.1");
        }
    }

    @Test
    void the901DacRefusesANet8Dump() throws Exception {
        DacEngine dac = DacEngine.open(TestDac.path());
        try (ElfCore dump = ElfCore.open(Path.of("../golden/real/net8-svr/core.xz"))) {
            Target target = new TargetOpener(ProfileLoader.builtIn()).open(dump, dump.mappedFiles(), Optional.empty());
            assertThatThrownBy(() -> dac.walk(Path.of("../golden/real/net8-svr/core.xz"), target, DacWalkKind.SOS, (a, m, s, r) -> { },
                    DacEngine.DEFAULT_TIMEOUT)).isInstanceOf(DacException.class).hasMessageContaining("9.0.1").hasMessageContaining("8.0.30");
        }
    }
}
