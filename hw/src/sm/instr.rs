//! Decode of the latched instruction: its fields, the decode ROM's class
//! and operand shape, a memory access's width, size and space.
//!
//! Parts of `Sm::update()` (`#[hdl_part]`): see the module doc of `sm`.

use super::*;

impl Sm {
    /// Decode of the latched instruction.
    #[hdl_part]
    pub(super) fn decode_instruction(&mut self) {
        self.f_op.next = self.ir.q.val().get_bits::<7>(0);
        self.f_i.next = self.ir.q.val().get_bit(7);
        self.f_d.next = self.ir.q.val().get_bits::<7>(12);
        self.f_a.next = self.ir.q.val().get_bits::<7>(19);
        self.f_mod.next = self.ir.q.val().get_bits::<6>(26);
        self.f_imm.next = self.ir.q.val().get_bits::<32>(32);
        self.f_b.next = self.ir.q.val().get_bits::<7>(32);
        self.f_c.next = self.ir.q.val().get_bits::<7>(39);
        if self.f_i.val() {
            self.f_c.next = operand::RZ.into();
        }
        self.f_rpc.next = bit_cast::<32, 20>(self.ir.q.val().get_bits::<20>(12));
        // The prefetched instruction's class, or (in Fetch) the fetched
        // word's decode, which `dw` takes with the word.
        self.pf_word.next = self.pf_ir.q.val();
        if (self.pf_st.q.val() == pf::WORD) | (self.state.q.val() == SmState::Fetch) {
            self.pf_word.next = self.imem.rdata.val();
        }
        self.pf_rom.op.next = self.pf_word.val().get_bits::<7>(0);
        self.pf_cls.next = self.pf_rom.word.val().get_bits::<5>(0);
        self.cls.next = self.dw.q.val().get_bits::<5>(0);
        self.ity64.next = self.f_mod.val().get_bit(5);
        self.wide_a.next = self.dw.q.val().get_bit(5) | (self.dw.q.val().get_bit(15) & self.ity64.val());
        self.wide_b.next = self.dw.q.val().get_bit(6);
        self.dwords.next = self.dw.q.val().get_bits::<2>(7);
        if self.dw.q.val().get_bit(13) & self.ity64.val() {
            self.dwords.next = 2.into();
        }
        self.setp.next = self.dw.q.val().get_bit(9);
        self.is_fp.next = self.dw.q.val().get_bit(12);
        self.is_sfu.next = self.dw.q.val().get_bit(16);
        self.is_shared.next = self.dw.q.val().get_bit(17);
        self.is_iter.next = self.dw.q.val().get_bit(18);
        self.is_div.next = self.is_iter.val() & !self.is_fp.val() & !self.is_sfu.val();
        self.is_shfl.next = self.dw.q.val().get_bit(14);
        // Predicate destination: d[2:0], or mod[4:2] for shfl's in-range predicate.
        self.pd.next = self.f_d.val().get_bits::<3>(0);
        if self.is_shfl.val() {
            self.pd.next = self.f_mod.val().get_bits::<3>(2);
        }
        self.wide.next = self.wide_a.val() | self.wide_b.val() | (self.dwords.val() == 2);
        // Packed predicate operand (3-bit number, negation bit 3) of the
        // instruction in Aux, or of the prefetched one in its Aux step:
        // d[6:3], mod[3:0] or a[3:0] by the ROM's operand selector.
        self.aux_ir.next = self.ir.q.val();
        self.auxsel.next = self.dw.q.val().get_bits::<2>(10);
        if (self.pf_st.q.val() == pf::AUX) | (self.pf_st.q.val() == pf::WORD) {
            self.aux_ir.next = self.pf_word.val();
            self.auxsel.next = self.pf_rom.word.val().get_bits::<2>(10);
        }
        self.aux_code.next = 7.into();
        if self.auxsel.val() == aux::D {
            self.aux_code.next = self.aux_ir.val().get_bits::<4>(15);
        }
        if self.auxsel.val() == aux::MOD {
            self.aux_code.next = self.aux_ir.val().get_bits::<4>(26);
        }
        if self.auxsel.val() == aux::A {
            self.aux_code.next = self.aux_ir.val().get_bits::<4>(19);
        }
        // Memory width: words per thread.
        self.mwidth.next = self.f_mod.val().get_bits::<3>(0);
        if self.cls.val() == class::ATOM {
            self.mwidth.next = width::B32.into();
            if self.ir.q.val().get_bit(46) & !self.f_i.val() {
                self.mwidth.next = width::B64.into();
            }
        }
        if self.cls.val() == class::SYS {
            self.mwidth.next = width::B32.into();
        }
        // Shared memory: access bytes, SharedMem's size code and passes.
        self.asz.next = 4.into();
        self.sm_size.next = 2.into();
        if self.mwidth.val() < width::U16 {
            self.asz.next = 1.into();
            self.sm_size.next = 0.into();
        } else if self.mwidth.val() < width::B32 {
            self.asz.next = 2.into();
            self.sm_size.next = 1.into();
        } else if self.mwidth.val() == width::B64 {
            self.asz.next = 8.into();
            if self.cls.val() == class::ATOM {
                self.sm_size.next = 3.into();
            }
        } else if self.mwidth.val() == width::B128 {
            self.asz.next = 16.into();
        }
        self.m_space.next = self.f_mod.val().get_bits::<3>(3);
        if self.cls.val() == class::ATOM {
            self.m_space.next = bit_cast::<3, 2>(self.f_mod.val().get_bits::<2>(4));
        }
        self.words.next = 1.into();
        if self.mwidth.val() == width::B64 {
            self.words.next = 2.into();
        }
        if self.mwidth.val() == width::B128 {
            self.words.next = 4.into();
        }
        // A system call reads seven argument words (a..a+6) and writes its
        // result to d (printf), or d and d+1 (malloc).
        if self.cls.val() == class::SYS {
            self.words.next = 7.into();
            if self.state.q.val() == SmState::MemWb {
                self.words.next = 1.into();
                if self.f_mod.val().get_bits::<2>(0) == 1 {
                    self.words.next = 2.into();
                }
            }
        }
        // May go fast (`Sm::fast`), in the global, constant or parameter
        // space (no lane in shared or local memory): a store, or a load of
        // 32 bits per thread or of 64 in one bus word (an answer writes a
        // lane's first word; `FastHi` the second ones) whose destination
        // is not one of its address operands (its early answers are
        // written before a start again would read them).
        self.fa_hit.next = (self.f_d.val() == self.f_a.val()) | (!self.f_i.val() & (self.f_d.val() == self.f_b.val()));
        if self.words.val() == 2 {
            self.fa_hit.next =
                self.fa_hit.val() | ((self.f_d.val() + 1) == self.f_a.val()) | (!self.f_i.val() & ((self.f_d.val() + 1) == self.f_b.val()));
        }
        self.fa_ok.next = ((self.cls.val() == class::ST)
            | ((self.cls.val() == class::LD)
                & ((self.words.val() == 1) | ((self.words.val() == 2) & (self.asz.val() <= self.consts.wbytes.val())))
                & !self.fa_hit.val()))
            & ((self.m_space.val() == space::GLOBAL) | (self.m_space.val() == space::CONST) | (self.m_space.val() == space::PARAM));
        self.sp_ok.next = (self.cls.val() == class::LD) & (self.m_space.val() == space::SHARED) & (self.words.val() == 1);
        self.pk_look.next = (self.cls.val() == class::LD)
            & (self.m_space.val() == space::PARAM)
            & (self.f_a.val() == operand::RZ)
            & self.f_i.val()
            & ((self.asz.val() == 4) | (self.asz.val() == 8));
        self.pcache.look.next = self.pk_look.val();
        self.pcache.addr.next = self.f_imm.val();
        self.pcache.wide.next = self.asz.val() == 8;
        self.pcache.clear.next = false;
        self.pcache.fill.next = false;
        self.pcache.fdata.next = 0.into();
        self.ballot.next = self.paux.q.val() & self.exec.q.val() & self.consts.lo32.val();
        self.e_warp.next = bit_cast::<8, 6>(self.cur.q.val());
        if (self.state.q.val() == SmState::InitWarp) | (self.state.q.val() == SmState::InitFill) {
            self.e_warp.next = self.init_w.q.val();
        }
        if self.state.q.val() == SmState::BarWb {
            self.e_warp.next = self.bw.q.val();
        }
        self.ep_step.next = false;
        self.c_rf_epoch.next = 0.into();
        for w in 0..self._count.warps {
            if self.consts.index[w].val() == self.e_warp.val() {
                self.c_rf_epoch.next = self.w_epoch.q[w].val();
            }
        }
        self.rf_tag.next = bit_cast::<WORD_BITS, EPOCH_BITS>(self.c_rf_epoch.val()) << self.consts.data_bits.val();
        self.imm64.next = bit_cast::<64, 32>(self.f_imm.val());
    }
}
