// The lane ALU's bit-field, popc, clz and bfind functions as they were
// first written: bit-by-bit loops, close to the PTX manual's pseudocode
// (BFE-*, BFI-*, POPC-*, CLZ-*, BFIND-* rows) and about 10 times larger
// in LUTs than the explicit structure hw/src/alu.rs has now. tests/fpga.rs
// proves the two equal with a yosys SAT miter, so these stay the reference.
module alu_bits(input [31:0] x, input [31:0] pl, input [31:0] base, input s, input shiftamt,
                output [31:0] bfe, output [31:0] bfi, output [31:0] clz, output [31:0] bfind, output [31:0] popc);
    function [31:0] bfe32(input [31:0] x, input [31:0] pl, input s);
        integer i, pos, len, tp;
        reg sbit;
        begin
            pos = pl[7:0];
            len = pl[15:8];
            tp = pos + len - 1;
            if (tp > 31) tp = 31;
            sbit = (s && len != 0) ? x[tp] : 1'b0;
            for (i = 0; i < 32; i = i + 1)
                bfe32[i] = (i < len && pos + i <= 31) ? x[(pos + i) & 31] : sbit;
        end
    endfunction

    function [31:0] bfi32(input [31:0] ins, input [31:0] pl, input [31:0] base);
        integer i, pos, len;
        begin
            pos = pl[7:0];
            len = pl[15:8];
            bfi32 = base;
            for (i = 0; i < 32; i = i + 1)
                if (i < len && pos + i <= 31) bfi32[(pos + i) & 31] = ins[i];
        end
    endfunction

    function [31:0] bfind32(input [31:0] x, input s, input shiftamt);
        reg [31:0] v;
        integer i, pos;
        begin
            v = (s && x[31]) ? ~x : x;
            pos = -1;
            for (i = 0; i < 32; i = i + 1) if (v[i]) pos = i;
            if (pos < 0) bfind32 = 32'hffffffff;
            else if (shiftamt) bfind32 = 31 - pos;
            else bfind32 = pos;
        end
    endfunction

    function [31:0] popc32(input [31:0] x);
        integer i;
        begin
            popc32 = 0;
            for (i = 0; i < 32; i = i + 1) popc32 = popc32 + {31'd0, x[i]};
        end
    endfunction

    function [31:0] clz32(input [31:0] x);
        integer i;
        reg seen;
        begin
            clz32 = 0;
            seen = 0;
            for (i = 31; i >= 0; i = i - 1) begin
                if (x[i]) seen = 1;
                if (!seen) clz32 = clz32 + 1;
            end
        end
    endfunction
    assign bfe = bfe32(x, pl, s);
    assign bfi = bfi32(x, pl, base);
    assign clz = clz32(x);
    assign bfind = bfind32(x, s, shiftamt);
    assign popc = popc32(x);
endmodule
