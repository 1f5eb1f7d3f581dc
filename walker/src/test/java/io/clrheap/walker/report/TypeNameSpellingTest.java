package io.clrheap.walker.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The spellings of docs/reference/type-names.md, "Name spelling", made one. */
class TypeNameSpellingTest {

    private static final String DAC = "System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib],[System.Object, System.Private.CoreLib]]";
    private static final String BULK_TYPE = "System.Collections.Generic.Dictionary`2[System.String,System.Object]";
    private static final String REFLECTION = "System.Collections.Generic.Dictionary`2[[System.Int32, System.Private.CoreLib, Version=8.0.0.0, Culture=neutral, "
            + "PublicKeyToken=7cec85d7bea7798e],[System.String, System.Private.CoreLib, Version=8.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e]]";

    @Test
    void reflectionsAssemblyQualifiedArgumentsAreSpelledAsTheDacSpellsThem() {
        assertThat(TypeNameSpelling.canonical(REFLECTION))
                .isEqualTo("System.Collections.Generic.Dictionary`2[[System.Int32, System.Private.CoreLib],[System.String, System.Private.CoreLib]]");
    }

    @Test
    void theDacsAndTheBulkTypeSpellingsAreLeftAsTheyAre() {
        assertThat(TypeNameSpelling.canonical(DAC)).isEqualTo(DAC);
        assertThat(TypeNameSpelling.canonical(BULK_TYPE)).isEqualTo(BULK_TYPE);
        assertThat(TypeNameSpelling.canonical("System.String[]")).isEqualTo("System.String[]");
    }

    @Test
    void theMatchKeyOfEverySpellingIsTheSame() {
        assertThat(TypeNameSpelling.matchKey(DAC)).isEqualTo(BULK_TYPE);
        assertThat(TypeNameSpelling.matchKey(BULK_TYPE)).isEqualTo(BULK_TYPE);
    }

    @Test
    void aFiltersPartOfANameKeysAsTheWholeNameDoes() {
        assertThat(TypeNameSpelling.matchKey("Dictionary`2[[System.String")).isEqualTo("Dictionary`2[System.String");
        assertThat(TypeNameSpelling.matchKey("Dictionary`2[[System.String, System.Private.CoreLib],[System.Object"))
                .isEqualTo("Dictionary`2[System.String,System.Object");
        assertThat(TypeNameSpelling.matchKey(BULK_TYPE)).contains(TypeNameSpelling.matchKey("Dictionary`2[[System.String"));
    }

    @Test
    void nestedArgumentsAndArraysKeepTheirShape() {
        String nested = "System.Collections.Generic.List`1[[System.Collections.Generic.KeyValuePair`2[[System.String, System.Private.CoreLib],"
                + "[System.Int32[], System.Private.CoreLib]], System.Private.CoreLib]][]";
        assertThat(TypeNameSpelling.matchKey(nested))
                .isEqualTo("System.Collections.Generic.List`1[System.Collections.Generic.KeyValuePair`2[System.String,System.Int32[]]][]");
        assertThat(TypeNameSpelling.canonical(nested)).isEqualTo(nested);
        assertThat(TypeNameSpelling.matchKey("System.Int32[,]")).isEqualTo("System.Int32[,]");
    }

    @Test
    void whatIsNoTypeNameIsReturnedUnchanged() {
        assertThat(TypeNameSpelling.canonical("A`1[[B, C")).isEqualTo("A`1[[B, C");
        assertThat(TypeNameSpelling.canonical("Unknown (MethodTable: 0x10)")).isEqualTo("Unknown (MethodTable: 0x10)");
    }
}
