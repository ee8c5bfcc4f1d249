// The shared-memory crossbar (hw/src/smem.rs `BankXbar`) of `tiny` (4 lanes,
// 4 banks) in the loop form it was first written in: per-lane loops that
// accumulate into arrays indexed by variables. tests/fpga.rs proves the
// explicit structure that replaced it equal to this, for every input, with a
// yosys SAT miter.
module xbar_reference(active,mode,size,addr$0,addr$1,addr$2,addr$3,wdata$0,wdata$1,wdata$2,wdata$3,anew,rdata$0,rdata$1,rdata$2,rdata$3,grant,row$0,row$1,row$2,row$3,we$0,we$1,we$2,we$3,be$0,be$1,be$2,be$3,bwdata$0,bwdata$1,bwdata$2,bwdata$3,rword$0,rword$1,rword$2,rword$3,aold);
    
    // Module arguments
    input wire  [31:0] active;
    input wire  [1:0] mode;
    input wire  [1:0] size;
    input wire  [31:0] addr$0;
    input wire  [31:0] addr$1;
    input wire  [31:0] addr$2;
    input wire  [31:0] addr$3;
    input wire  [31:0] wdata$0;
    input wire  [31:0] wdata$1;
    input wire  [31:0] wdata$2;
    input wire  [31:0] wdata$3;
    input wire  [63:0] anew;
    input wire  [31:0] rdata$0;
    input wire  [31:0] rdata$1;
    input wire  [31:0] rdata$2;
    input wire  [31:0] rdata$3;
    output reg  [31:0] grant;
    output reg  [15:0] row$0;
    output reg  [15:0] row$1;
    output reg  [15:0] row$2;
    output reg  [15:0] row$3;
    output reg  we$0;
    output reg  we$1;
    output reg  we$2;
    output reg  we$3;
    output reg  [3:0] be$0;
    output reg  [3:0] be$1;
    output reg  [3:0] be$2;
    output reg  [3:0] be$3;
    output reg  [31:0] bwdata$0;
    output reg  [31:0] bwdata$1;
    output reg  [31:0] bwdata$2;
    output reg  [31:0] bwdata$3;
    output reg  [63:0] rword$0;
    output reg  [63:0] rword$1;
    output reg  [63:0] rword$2;
    output reg  [63:0] rword$3;
    output reg  [63:0] aold;
    
    // Update code (custom)
    wire [31:0] a [0:3];
    wire [31:0] wd [0:3];
    wire [31:0] rd [0:3];
    reg [15:0] row_r [0:3];
    reg we_r [0:3];
    reg [3:0] be_r [0:3];
    reg [31:0] bw_r [0:3];
    reg [31:0] rw_r [0:3];
    assign a[0] = addr$0;
    assign wd[0] = wdata$0;
    assign a[1] = addr$1;
    assign wd[1] = wdata$1;
    assign a[2] = addr$2;
    assign wd[2] = wdata$2;
    assign a[3] = addr$3;
    assign wd[3] = wdata$3;
    assign rd[0] = rdata$0;
    assign rd[1] = rdata$1;
    assign rd[2] = rdata$2;
    assign rd[3] = rdata$3;
    integer l, b, k;
    reg [31:0] taken;
    reg found;
    reg [31:0] ak;
    reg [4:0] bk;
    always @(*) begin
        grant = 32'd0;
        taken = 32'd0;
        found = 1'b0;
        ak = 32'd0;
        bk = 5'd0;
        k = 0;
        for (b = 0; b < 4; b = b + 1) begin
            row_r[b] = 16'd0; we_r[b] = 1'b0; be_r[b] = 4'd0; bw_r[b] = 32'd0;
        end
        for (l = 0; l < 4; l = l + 1) begin
            if (active[l]) begin
                if (mode == 2'd2) begin
                    if (!found) begin
                        found = 1'b1;
                        grant[l] = 1'b1;
                        for (k = 0; k < 2; k = k + 1) begin
                            if (k == 0 || size == 2'd3) begin
                                ak = a[l] + 32'd4 * k;
                                bk = ak[6:2] & 5'd3;
                                row_r[bk] = ak[4 +: 16];
                                we_r[bk] = 1'b1;
                                be_r[bk] = 4'hf;
                                bw_r[bk] = (k == 0) ? anew[31:0] : anew[63:32];
                            end
                        end
                    end
                end else begin
                    bk = a[l][6:2] & 5'd3;
                    if (!taken[bk]) begin
                        taken[bk] = 1'b1;
                        row_r[bk] = a[l][4 +: 16];
                        grant[l] = 1'b1;
                        if (mode == 2'd1) begin
                            we_r[bk] = 1'b1;
                            be_r[bk] = (size == 2'd0 ? 4'h1 : size == 2'd1 ? 4'h3 : 4'hf) << a[l][1:0];
                            bw_r[bk] = wd[l] << (8 * a[l][1:0]);
                        end
                    end else if (mode == 2'd0 && row_r[bk] == a[l][4 +: 16]) begin
                        grant[l] = 1'b1;
                    end
                end
            end
        end
    end
    integer m;
    reg [4:0] rb;
    reg found_r;
    always @(*) begin
        aold = 64'd0;
        found_r = 1'b0;
        rb = 5'd0;
        for (m = 0; m < 4; m = m + 1) begin
            rb = a[m][6:2] & 5'd3;
            rw_r[m] = (rd[rb] >> (8 * a[m][1:0])) & (size == 2'd0 ? 32'hff : size == 2'd1 ? 32'hffff : 32'hffffffff);
            if (active[m] && !found_r) begin
                found_r = 1'b1;
                aold[31:0] = rd[rb];
                if (size == 2'd3) aold[63:32] = rd[(rb + 5'd1) & 5'd3];
            end
        end
    end
    always @(*) begin
        row$0 = row_r[0];
        we$0 = we_r[0];
        be$0 = be_r[0];
        bwdata$0 = bw_r[0];
        row$1 = row_r[1];
        we$1 = we_r[1];
        be$1 = be_r[1];
        bwdata$1 = bw_r[1];
        row$2 = row_r[2];
        we$2 = we_r[2];
        be$2 = be_r[2];
        bwdata$2 = bw_r[2];
        row$3 = row_r[3];
        we$3 = we_r[3];
        be$3 = be_r[3];
        bwdata$3 = bw_r[3];
        rword$0 = rw_r[0];
        rword$1 = rw_r[1];
        rword$2 = rw_r[2];
        rword$3 = rw_r[3];
    end
endmodule
