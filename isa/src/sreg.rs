//! Special registers readable with `s2r`.

macro_rules! sregs {
    ($($v:ident = $n:literal $name:literal $doc:literal;)*) => {
        /// A special register number (the `a` field of `s2r`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum SReg { $($v = $n,)* }
        impl SReg {
            pub const ALL: &'static [SReg] = &[$(SReg::$v,)*];
            pub fn name(self) -> &'static str { match self { $(SReg::$v => $name,)* } }
            pub fn doc(self) -> &'static str { match self { $(SReg::$v => $doc,)* } }
            pub fn from_code(c: u8) -> Option<SReg> { match c { $($n => Some(SReg::$v),)* _ => None } }
            pub fn from_name(s: &str) -> Option<SReg> { match s { $($name => Some(SReg::$v),)* _ => None } }
        }
    };
}

sregs! {
    TidX = 0 "tid.x" "thread index in the CTA, x";
    TidY = 1 "tid.y" "thread index in the CTA, y";
    TidZ = 2 "tid.z" "thread index in the CTA, z";
    NtidX = 3 "ntid.x" "CTA size, x";
    NtidY = 4 "ntid.y" "CTA size, y";
    NtidZ = 5 "ntid.z" "CTA size, z";
    CtaidX = 6 "ctaid.x" "CTA index in the grid, x";
    CtaidY = 7 "ctaid.y" "CTA index in the grid, y";
    CtaidZ = 8 "ctaid.z" "CTA index in the grid, z";
    NctaidX = 9 "nctaid.x" "grid size in CTAs, x";
    NctaidY = 10 "nctaid.y" "grid size in CTAs, y";
    NctaidZ = 11 "nctaid.z" "grid size in CTAs, z";
    LaneId = 12 "laneid" "lane within the warp";
    WarpId = 13 "warpid" "warp within the CTA";
    NWarpId = 14 "nwarpid" "warps per CTA";
    SmId = 15 "smid" "streaming multiprocessor number";
    NSmId = 16 "nsmid" "number of SMs";
    GridId = 17 "gridid" "launch number";
    Clock = 18 "clock" "low 32 bits of the warp's clock (golden model: instructions the warp retired; RTL: cycles)";
    ClockHi = 19 "clock_hi" "high 32 bits of the clock";
    LanemaskEq = 20 "lanemask_eq" "bit laneid set";
    LanemaskLe = 21 "lanemask_le" "bits at or below laneid";
    LanemaskLt = 22 "lanemask_lt" "bits below laneid";
    LanemaskGe = 23 "lanemask_ge" "bits at or above laneid";
    LanemaskGt = 24 "lanemask_gt" "bits above laneid";
    ActiveMask = 25 "activemask" "lanes executing this instruction";
    WarpSize = 26 "warpsize" "threads per warp";
    DynSmem = 27 "dynamic_smem_size" "dynamic shared memory bytes of the launch";
    TotalSmem = 28 "total_smem_size" "shared memory bytes of the CTA (static + dynamic)";
}
