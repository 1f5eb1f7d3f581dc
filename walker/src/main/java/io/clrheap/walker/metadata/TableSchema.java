package io.clrheap.walker.metadata;

/**
 * The column kinds of the ECMA-335 tables 0x00..0x2C (partition II, chapter 22), enough to compute every table's row
 * size and so where each table starts: {@code 2}/{@code 4} fixed, {@code S}/{@code G}/{@code B} an index into
 * #Strings/#GUID/#Blob, {@code t:XX} a simple index into table XX (hex), {@code c:NAME} a coded index (II.24.2.6).
 */
final class TableSchema {

    private TableSchema() {
    }

    static final String[] COLUMNS = {
        /* 00 Module */ "2 S G G G",
        /* 01 TypeRef */ "c:RS S S",
        /* 02 TypeDef */ "4 S S c:TDOR t:04 t:06",
        /* 03 FieldPtr */ "t:04",
        /* 04 Field */ "2 S B",
        /* 05 MethodPtr */ "t:06",
        /* 06 MethodDef */ "4 2 2 S B t:08",
        /* 07 ParamPtr */ "t:08",
        /* 08 Param */ "2 2 S",
        /* 09 InterfaceImpl */ "t:02 c:TDOR",
        /* 0A MemberRef */ "c:MRP S B",
        /* 0B Constant */ "2 c:HC B",
        /* 0C CustomAttribute */ "c:HCA c:CAT B",
        /* 0D FieldMarshal */ "c:HFM B",
        /* 0E DeclSecurity */ "2 c:HDS B",
        /* 0F ClassLayout */ "2 4 t:02",
        /* 10 FieldLayout */ "4 t:04",
        /* 11 StandAloneSig */ "B",
        /* 12 EventMap */ "t:02 t:14",
        /* 13 EventPtr */ "t:14",
        /* 14 Event */ "2 S c:TDOR",
        /* 15 PropertyMap */ "t:02 t:17",
        /* 16 PropertyPtr */ "t:17",
        /* 17 Property */ "2 S B",
        /* 18 MethodSemantics */ "2 t:06 c:HS",
        /* 19 MethodImpl */ "t:02 c:MDOR c:MDOR",
        /* 1A ModuleRef */ "S",
        /* 1B TypeSpec */ "B",
        /* 1C ImplMap */ "2 c:MF S t:1a",
        /* 1D FieldRVA */ "4 t:04",
        /* 1E ENCLog */ "4 4",
        /* 1F ENCMap */ "4",
        /* 20 Assembly */ "4 2 2 2 2 4 B S S",
        /* 21 AssemblyProcessor */ "4",
        /* 22 AssemblyOS */ "4 4 4",
        /* 23 AssemblyRef */ "2 2 2 2 4 B S S B",
        /* 24 AssemblyRefProcessor */ "4 t:23",
        /* 25 AssemblyRefOS */ "4 4 4 t:23",
        /* 26 File */ "4 S B",
        /* 27 ExportedType */ "4 4 S S c:IMPL",
        /* 28 ManifestResource */ "4 4 S c:IMPL",
        /* 29 NestedClass */ "t:02 t:02",
        /* 2A GenericParam */ "2 2 c:TOMD S",
        /* 2B MethodSpec */ "c:MDOR B",
        /* 2C GenericParamConstraint */ "t:2a c:TDOR",
    };

    /** Coded index: tag bits and the tables it may point into (II.24.2.6). */
    private record Coded(int bits, int[] tables) {
    }

    private static Coded coded(String name) {
        return switch (name) {
            case "TDOR" -> new Coded(2, new int[] {0x02, 0x01, 0x1b});
            case "HC" -> new Coded(2, new int[] {0x04, 0x08, 0x17});
            case "HCA" -> new Coded(5, new int[] {0x06, 0x04, 0x01, 0x02, 0x08, 0x09, 0x0a, 0x00, 0x0e, 0x17, 0x14, 0x11,
                0x1a, 0x1b, 0x20, 0x23, 0x26, 0x27, 0x28, 0x2a, 0x2c, 0x2b});
            case "HFM" -> new Coded(1, new int[] {0x04, 0x08});
            case "HDS" -> new Coded(2, new int[] {0x02, 0x06, 0x20});
            case "MRP" -> new Coded(3, new int[] {0x02, 0x01, 0x1a, 0x06, 0x1b});
            case "HS" -> new Coded(1, new int[] {0x14, 0x17});
            case "MDOR" -> new Coded(1, new int[] {0x06, 0x0a});
            case "MF" -> new Coded(1, new int[] {0x04, 0x06});
            case "IMPL" -> new Coded(2, new int[] {0x26, 0x23, 0x27});
            case "CAT" -> new Coded(3, new int[] {0x06, 0x0a});
            case "RS" -> new Coded(2, new int[] {0x00, 0x1a, 0x23, 0x01});
            case "TOMD" -> new Coded(1, new int[] {0x02, 0x06});
            default -> throw new IllegalStateException("unknown coded index " + name);
        };
    }

    /** 2 bytes when every table the coded index may name has fewer than 2^(16 - tag bits) rows, else 4. */
    static int codedWidth(String name, int[] rows) {
        Coded c = coded(name);
        int max = 0;
        for (int t : c.tables()) {
            max = Math.max(max, rows[t]);
        }
        return max >= (1 << (16 - c.bits())) ? 4 : 2;
    }
}
