package io.clrheap.cli.map;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;

/**
 * JSON escapes for JSON inside an HTML {@code <script>} element: {@code <}, {@code >} and {@code &} as {@code \}{@code u00XX}
 * so that no type name can close the element ({@code </script>}) or open a comment ({@code <!--}); every character
 * beyond ASCII escaped too (U+2028 and U+2029 among them), so the file is plain ASCII whatever the names hold.
 */
final class ScriptSafeEscapes extends CharacterEscapes {

    private final int[] escapes;

    ScriptSafeEscapes() {
        escapes = standardAsciiEscapesForJSON();
        escapes['<'] = ESCAPE_STANDARD;
        escapes['>'] = ESCAPE_STANDARD;
        escapes['&'] = ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
        return escapes;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
        return null; // ESCAPE_STANDARD and JsonWriteFeature.ESCAPE_NON_ASCII need no custom sequences
    }
}
