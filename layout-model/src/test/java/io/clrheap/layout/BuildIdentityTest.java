package io.clrheap.layout;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A build's identity from its sccsid string or file version (docs/reference/discovery.md section 3). */
class BuildIdentityTest {

    @Test
    void theSccsidStringGivesVersionFileVersionAndCommit() {
        var found = BuildIdentity.findSccsid("xx\0@(#)Version 9.0.725.31616 @Commit: 3c298d9f00936d651cc47d221762474e25277672\0").orElseThrow();
        assertThat(found.offset()).isEqualTo(3);
        assertThat(found.identity()).isEqualTo(new BuildIdentity("9.0.7", "9.0.725.31616", "3c298d9f00936d651cc47d221762474e25277672"));
        assertThat(found.identity().describe()).isEqualTo("9.0.7 (9.0.725.31616, commit 3c298d9f0093)");
    }

    @Test
    void thePatchIsTheThirdPartDividedByAHundred() {
        assertThat(BuildIdentity.ofFileVersion("8.0.3026.36720", "").version()).isEqualTo("8.0.30");
        assertThat(BuildIdentity.ofFileVersion("10.0.25.52411", "").version()).isEqualTo("10.0.0");
        assertThat(BuildIdentity.ofFileVersion("9.0.1125.51716", "").version()).isEqualTo("9.0.11");
        assertThat(BuildIdentity.ofFileVersion("8.0.2025.41914", "").patch()).isEqualTo(20);
    }

    @Test
    void noSccsidStringIsNoIdentity() {
        assertThat(BuildIdentity.findSccsid("@(#)Version of nothing")).isEmpty();
    }

    @Test
    void versionsCompareNumerically() {
        assertThat(BuildIdentity.compareVersions("9.0.11", "9.0.7")).isPositive();
        assertThat(BuildIdentity.compareVersions("10.0.0", "9.0.11")).isPositive();
        assertThat(BuildIdentity.compareVersions("8.0.30", "8.0.30")).isZero();
    }
}
