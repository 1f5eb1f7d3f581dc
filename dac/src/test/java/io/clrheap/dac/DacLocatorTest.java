package io.clrheap.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clrheap.dac.library.DacException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the DAC of a dump's exact build is found, in the order a .NET user would expect, and what is said when it is not.
 * The DACs here are stand-ins: files carrying a build's version string (all the locator reads).
 */
class DacLocatorTest {

    static final String V901 = "9.0.124.61010";
    static final String C901 = "c8acea22626efab11c13778c028975acdc34678f";
    static final String V905 = "9.0.525.21509";
    static final String C905 = "e36e4d1a8f8dfb08d7e3a6041459c9791d732c01";
    static final String V907 = "9.0.725.31616";
    static final String C907 = "3c298d9f00936d651cc47d221762474e25277672";

    private static Path dacIn(Path folder) throws Exception {
        return dacIn(folder, V901, C901);
    }

    /** A stand-in DAC of build {@code fileVersion}/{@code commit} in {@code folder}. */
    static Path dacIn(Path folder, String fileVersion, String commit) throws Exception {
        Files.createDirectories(folder);
        return Files.write(folder.resolve(DacLocator.FILE_NAME), ("\0\1ELF...\0@(#)Version " + fileVersion + " @Commit: " + commit + "\0")
                .getBytes(StandardCharsets.ISO_8859_1));
    }

    private static DumpBuild build(String fileVersion, String commit) {
        return DumpBuild.of(new DacBuild(fileVersion, commit));
    }

    @Test
    void aGivenFolderMeansTheDacInIt(@TempDir Path dir) throws Exception {
        Path dac = dacIn(dir.resolve("runtime"));
        DacLocator.Located found = new DacLocator(Map.of()).locate(Optional.of(dir.resolve("runtime")), "9.0.1", null);
        assertThat(found.path()).isEqualTo(dac);
        assertThat(found.build()).isEqualTo(new DacBuild(V901, C901));
        assertThat(found.how()).isEqualTo("--dac");
    }

    @Test
    void aGivenPathThatIsNotThereIsAnErrorNotASearch(@TempDir Path dir) throws Exception {
        dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.1"));
        assertThatThrownBy(() -> new DacLocator(Map.of("DOTNET_ROOT", dir.resolve("dotnet").toString()))
                .locate(Optional.of(dir.resolve("nope.so")), "9.0.1", null)).isInstanceOf(DacException.class).hasMessageContaining("nope.so");
    }

    @Test
    void aGivenFolderOfSeveralBuildsGivesEachDumpItsOwnBuildsDac(@TempDir Path dir) throws Exception {
        // one folder per build, as a user keeps them, and a runtime cache's depth (npm/PACKAGE/dist/)
        Path d901 = dacIn(dir.resolve("9.0.1"), V901, C901);
        Path d905 = dacIn(dir.resolve("npm/azure-mcp-linux-x64-0.5.5/dist"), V905, C905);
        Path d907 = dacIn(dir.resolve("9.0.7"), V907, C907);
        DacLocator locator = new DacLocator(Map.of());
        assertThat(locator.locate(Optional.of(dir), build(V901, C901), null).path()).isEqualTo(d901);
        assertThat(locator.locate(Optional.of(dir), build(V905, C905), null).path()).isEqualTo(d905);
        assertThat(locator.locate(Optional.of(dir), build(V907, C907), null).path()).isEqualTo(d907);
        // by version alone too (a dump that names no commit)
        assertThat(locator.locate(Optional.of(dir), "9.0.5", null).path()).isEqualTo(d905);
        assertThat(locator.locate(Optional.of(dir), "9.0.7", null).build()).isEqualTo(new DacBuild(V907, C907));
    }

    @Test
    void aGivenFolderWithoutTheDumpsBuildNamesTheBuildsItHolds(@TempDir Path dir) throws Exception {
        Path given = dir.resolve("dacs");
        Path d901 = dacIn(given.resolve("9.0.1"), V901, C901);
        Path d907 = dacIn(given.resolve("9.0.7"), V907, C907);
        Files.createDirectories(given.resolve("broken"));
        Path broken = Files.writeString(given.resolve("broken").resolve(DacLocator.FILE_NAME), "no version");
        dacIn(dir.resolve("elsewhere/dotnet/shared/Microsoft.NETCore.App/9.0.5"), V905, C905); // not under --dac: not searched
        assertThatThrownBy(() -> new DacLocator(Map.of("DOTNET_ROOT", dir.resolve("elsewhere/dotnet").toString()))
                .locate(Optional.of(given), build(V905, C905), null))
                .isInstanceOf(DacException.class)
                .hasMessageContaining("holds no DAC of .NET 9.0.5 (9.0.525.21509, commit e36e4d1a8f8d)")
                .hasMessageContaining(".NET 9.0.1 (9.0.124.61010, commit c8acea22626e) at " + d901)
                .hasMessageContaining(".NET 9.0.7 (9.0.725.31616, commit 3c298d9f0093) at " + d907)
                .hasMessageContaining(broken + " (no @(#)Version string: not a DAC)")
                .message().doesNotContain("elsewhere");
    }

    @Test
    void aGivenFolderWithNoDacAtAllSaysSo(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("empty/sub"));
        assertThatThrownBy(() -> new DacLocator(Map.of()).locate(Optional.of(dir.resolve("empty")), "9.0.7", null))
                .isInstanceOf(DacException.class).hasMessageContaining("no libmscordaccore.so in it");
    }

    @Test
    void aGivenDacOfAnotherBuildIsRefusedNamingBothExactBuilds(@TempDir Path dir) throws Exception {
        Path d907 = dacIn(dir, V907, C907);
        assertThatThrownBy(() -> new DacLocator(Map.of()).locate(Optional.of(d907), build(V905, C905), null))
                .isInstanceOf(DacException.class)
                .hasMessage("the DAC " + d907 + " is .NET 9.0.7 (9.0.725.31616, commit 3c298d9f0093); the dump's runtime is .NET 9.0.5 "
                        + "(9.0.525.21509, commit e36e4d1a8f8d): a DAC reads only dumps of its own build; use the libmscordaccore.so of .NET 9.0.5");
    }

    @Test
    void theSameVersionOfAnotherCommitIsAnotherBuild(@TempDir Path dir) throws Exception {
        // a private build of 9.0.7 beside the released one: the commit tells them apart, where the dump names it
        Path privateBuild = dacIn(dir.resolve("a-private"), V907, "0123456789abcdef0123456789abcdef01234567");
        Path released = dacIn(dir.resolve("b-released"), V907, C907);
        DacLocator locator = new DacLocator(Map.of());
        assertThat(locator.locate(Optional.of(dir), build(V907, C907), null).path()).isEqualTo(released);
        assertThat(locator.locate(Optional.of(dir), new DumpBuild("9.0.7", "", "3c298d9f0093"), null).path()).isEqualTo(released);
        assertThat(locator.locate(Optional.of(dir), "9.0.7", null).path()).isEqualTo(privateBuild); // the version alone: the first, by path
        assertThatThrownBy(() -> locator.locate(Optional.of(privateBuild), build(V907, C907), null)).isInstanceOf(DacException.class)
                .hasMessageContaining("is .NET 9.0.7 (9.0.725.31616, commit 0123456789ab); the dump's runtime is .NET 9.0.7 (9.0.725.31616, commit 3c298d9f0093)");
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
    void anEnvironmentVariableOfOtherBuildsIsPassedOverForTheInstalls(@TempDir Path dir) throws Exception {
        // $CLRHEAP_DAC names a folder of DACs: the dump's build is not among them, the .NET install has it
        dacIn(dir.resolve("dacs/9.0.1"), V901, C901);
        Path d907 = dacIn(dir.resolve("dacs/9.0.7"), V907, C907);
        Path install = dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.5"), V905, C905);
        DacLocator locator = new DacLocator(Map.of(DacLocator.ENVIRONMENT_VARIABLE, dir.resolve("dacs").toString(),
                "DOTNET_ROOT", dir.resolve("dotnet").toString()));
        DacLocator.Located found = locator.locate(Optional.empty(), build(V905, C905), null);
        assertThat(found.path()).isEqualTo(install);
        assertThat(found.how()).isEqualTo("$DOTNET_ROOT");
        assertThat(locator.locate(Optional.empty(), "9.0.7", null).path()).isEqualTo(d907);
    }

    @Test
    void theDumpsOwnRuntimeFolderComesBeforeDotnetRoot(@TempDir Path dir) throws Exception {
        Path beside = dacIn(dir.resolve("app"));
        dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.1"));
        assertThat(new DacLocator(Map.of("DOTNET_ROOT", dir.resolve("dotnet").toString()))
                .locate(Optional.empty(), "9.0.1", dir.resolve("app/libcoreclr.so").toString()).path()).isEqualTo(beside);
    }

    @Test
    void aDacOfAnotherBuildBesideTheRuntimeModuleIsPassedOver(@TempDir Path dir) throws Exception {
        // the dump was taken elsewhere: the path its runtime module had holds another application's runtime here
        dacIn(dir.resolve("app"), V901, C901);
        Path right = dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.7"), V907, C907);
        assertThat(new DacLocator(Map.of("DOTNET_ROOT", dir.resolve("dotnet").toString()))
                .locate(Optional.empty(), build(V907, C907), dir.resolve("app/libcoreclr.so").toString()).path()).isEqualTo(right);
    }

    @Test
    void dotnetRootIsSearchedForTheDumpsVersion(@TempDir Path dir) throws Exception {
        dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.7"), V907, C907);
        Path right = dacIn(dir.resolve("dotnet/shared/Microsoft.NETCore.App/9.0.1"));
        assertThat(new DacLocator(Map.of("DOTNET_ROOT", dir.resolve("dotnet").toString())).locate(Optional.empty(), "9.0.1", "/nowhere/libcoreclr.so").path())
                .isEqualTo(right);
    }

    @Test
    void noDacNamesEveryPlaceLookedAtAndTheBuildsSeen(@TempDir Path dir) throws Exception {
        Path other = dacIn(dir.resolve("app"), V901, C901);
        Path env = dacIn(dir.resolve("env"), V907, C907);
        assertThatThrownBy(() -> new DacLocator(Map.of("DOTNET_ROOT", dir.toString(), "HOME", dir.toString(),
                DacLocator.ENVIRONMENT_VARIABLE, env.toString()))
                .locate(Optional.empty(), build(V905, C905), dir.resolve("app/libcoreclr.so").toString()))
                .isInstanceOf(DacException.class)
                .hasMessageStartingWith("no DAC (libmscordaccore.so) of .NET 9.0.5 (9.0.525.21509, commit e36e4d1a8f8d) found")
                .hasMessageContaining(".NET 9.0.7 (9.0.725.31616, commit 3c298d9f0093) at " + env + " ($CLRHEAP_DAC)")
                .hasMessageContaining(".NET 9.0.1 (9.0.124.61010, commit c8acea22626e) at " + other + " (beside the dump's runtime module)")
                .hasMessageContaining(dir.resolve("shared/Microsoft.NETCore.App/9.0.5/libmscordaccore.so").toString())
                .hasMessageContaining("--dac");
    }

    @Test
    void aFolderSearchIsBounded(@TempDir Path dir) throws Exception {
        Path deep = dir;
        for (int i = 0; i < DacLocator.MAX_DEPTH; i++) {
            deep = deep.resolve("d" + i);
        }
        dacIn(deep, V907, C907); // one level deeper than searched
        Path shallow = dacIn(dir.resolve("d0"), V907, C907);
        assertThat(DacLocator.dacsIn(dir, new java.util.ArrayList<>(), "--dac")).containsExactly(shallow);
    }
}
