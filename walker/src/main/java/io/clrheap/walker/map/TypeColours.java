package io.clrheap.walker.map;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The colour of each type on the map, the same for the same dump every time: free objects grey; the types with the
 * most bytes take a fixed palette of distinct colours in rank order; the rest a colour from a hash of the name (so
 * that a type keeps its colour whatever else the heap holds), kept away from grey.
 */
final class TypeColours {

    static final String FREE = "#b4b4b4";

    /** Distinct, saturated colours (Tableau 20 and Okabe-Ito, greys left out: grey is for free objects). */
    private static final String[] PALETTE = {
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
        "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9", "#a0cbe8", "#ffbe7d", "#8cd17d",
        "#86bcb6", "#f1ce63", "#d4a6c8", "#fabfd2", "#d37295", "#499894",
    };

    private TypeColours() {
    }

    /** The colour of the type ranked {@code rank} among the types that are not free (0: the most bytes). */
    static String of(int rank, String name) {
        if (rank < PALETTE.length) {
            return PALETTE[rank];
        }
        // FNV-1a over the UTF-8 name: stable across JVMs, unlike String.hashCode's use in hashing collections
        int h = 0x811c9dc5;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x01000193;
        }
        double hue = Integer.toUnsignedLong(h) % 360;
        double saturation = 0.45 + ((h >>> 9) & 0xff) / 255.0 * 0.4;  // 0.45..0.85: never grey
        double lightness = 0.40 + ((h >>> 17) & 0xff) / 255.0 * 0.25; // 0.40..0.65: never near white or black
        return hsl(hue, saturation, lightness);
    }

    private static String hsl(double h, double s, double l) {
        double c = (1 - Math.abs(2 * l - 1)) * s;
        double x = c * (1 - Math.abs((h / 60) % 2 - 1));
        double m = l - c / 2;
        double r;
        double g;
        double b;
        switch ((int) (h / 60)) {
            case 0 -> { r = c; g = x; b = 0; }
            case 1 -> { r = x; g = c; b = 0; }
            case 2 -> { r = 0; g = c; b = x; }
            case 3 -> { r = 0; g = x; b = c; }
            case 4 -> { r = x; g = 0; b = c; }
            default -> { r = c; g = 0; b = x; }
        }
        return String.format(Locale.ROOT, "#%02x%02x%02x", Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255));
    }
}
