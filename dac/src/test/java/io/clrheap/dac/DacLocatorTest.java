package io.clrheap.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.clrheap.dac.library.DacException;

/** Where the DAC is found without --dac, in the order a .NET user would expect, and what is said when it is not. */
class DacLocatorTest {

    private static Path dacIn(Path folder) throws Exception {
        Files.createDirectories(folder);
        return Files.writeString(folder.resolve(DacLocator.FILE_NAME), "dac");
    }

    @Test
    void aGivenFolderMeansTheDacInIt(@TempDir Path dir) throws Exception {
        Path dac = dacIn(dir.resolve("runtime"));
        assertThat(new DacLocator(Map.of()).locate(Optional.of(dir.resolve("runtime")), "9.0.1", null).path()).isEqualTo(dac);
    }

    @Test
    void aGivenPathThatIsNotThereIsAnErrorNotASearch(@TempDir Path dir) throws Exception {
        dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.1"));
        assertThatThrownBy(() -> new DacLocator(Map.of("DOTNET_ROOT", dir.resolve("dotnet").toString()))
                .locate(Optional.of(dir.resolve("nope.so")), "9.0.1", null)).isInstanceOf(DacException.class).hasMessageContaining("nope.so");
    }

    @Test
    void theEnvironmentVariableComesBeforeTheInstalls(@TempDir Path dir) throws Exception {
        Path mine = dacIn(dir.resolve("mine"));
        dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.1"));
        DacLocator.Located found = new DacLocator(Map.of(DacLocator.ENVIRONMENT_VARIABLE, mine.toString(), "DOTNET_ROOT", dir.resolve("dotnet").toString()))
                .locate(Optional.empty(), "9.0.1", null);
        assertThat(found.path()).isEqualTo(mine);
        assertThat(found.how()).isEqualTo("$CLRHEAP_DAC");
    }

    @Test
    void theDumpsOwnRuntimeFolderComesBeforeDotnetRoot(@TempDir Path dir) throws Exception {
        Path beside = dacIn(dir.resolve("app"));
        dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.1"));
        assertThat(new DacLocator(Map.of("DOTNET_ROOT", dir.resolve("dotnet").toString()))
                .locate(Optional.empty(), "9.0.1", dir.resolve("app/libcoreclr.so").toString()).path()).isEqualTo(beside);
    }

    @Test
    void dotnetRootIsSearchedForTheDumpsVersion(@TempDir Path dir) throws Exception {
        dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.7"));
        Path right = dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.1"));
        assertThat(new DacLocator(Map.of("DOTNET_ROOT", dir.resolve("dotnet").toString())).locate(Optional.empty(), "9.0.1", "/nowhere/libcoreclr.so").path())
                .isEqualTo(right);
    }

    @Test
    void noDacNamesEveryPlaceLookedAt(@TempDir Path dir) {
        assertThatThrownBy(() -> new DacLocator(Map.of("DOTNET_ROOT", dir.toString(), "HOME", dir.toString()))
                .locate(Optional.empty(), "9.0.1", dir.resolve("app/libcoreclr.so").toString()))
                .isInstanceOf(DacException.class)
                .hasMessageContaining(dir.resolve("app/libmscordaccore.so").toString())
                .hasMessageContaining(dir.resolve("shared/Microsoft.NETCore.App/9.0.1/libmscordaccore.so").toString())
                .hasMessageContaining("--dac");
    }
}
