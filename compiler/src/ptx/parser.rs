//! The PTX parser: hand-written recursive descent over the token list.
//!
//! Chosen over parser-combinator crates for precise, recoverable errors
//! (an error skips to the next `;` or `}` and parsing goes on, so one run
//! reports every error) and for speed: one pass, no backtracking beyond
//! a token of lookahead. Nesting of blocks and expressions is limited
//! ([`MAX_DEPTH`]) so hostile input gives an error, not a stack overflow.

use super::ast::*;
use super::lexer::{lex, Tok, Token};
use super::source::{SourceFile, Span};
use heddle_isa::diag::Diagnostic;

/// Deepest nesting of blocks, brace lists and expressions.
pub const MAX_DEPTH: usize = 128;
/// Most binary operators at one level of a constant expression.
pub const MAX_OPERATORS: usize = 512;

type PResult<T> = Result<T, (Span, String)>;

pub struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    src: &'a SourceFile,
    errors: Vec<Diagnostic>,
    depth: usize,
}

/// Parses a whole file; on failure, every error found.
pub fn parse(src: &SourceFile) -> Result<Module, Vec<Diagnostic>> {
    let (toks, lex_errors) = lex(&src.text);
    let mut p = Parser { toks, pos: 0, src, errors: vec![], depth: 0 };
    for e in lex_errors {
        p.errors.push(src.diagnostic(e.span, e.message));
    }
    let m = p.module();
    match m {
        Ok(m) if p.errors.is_empty() => Ok(m),
        Ok(_) => Err(p.errors),
        Err((span, msg)) => {
            p.errors.push(src.diagnostic(span, msg));
            Err(p.errors)
        }
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) | Tok::Dot(s) => format!("`{s}`"),
        Tok::Int(v, _) => format!("`{v}`"),
        Tok::Float(v) => format!("`{v}`"),
        Tok::F32Bits(v) => format!("`0f{v:08X}`"),
        Tok::F64Bits(v) => format!("`0d{v:016X}`"),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::Punct(p) => format!("`{p}`"),
        Tok::Eof => "the end of the file".into(),
    }
}

const LINKAGE: &[(&str, Linkage)] =
    &[(".extern", Linkage::Extern), (".visible", Linkage::Visible), (".weak", Linkage::Weak), (".common", Linkage::Common)];

const FUNC_ATTRS: &[&str] = &[
    ".maxntid",
    ".reqntid",
    ".minnctapersm",
    ".maxnctapersm",
    ".maxnreg",
    ".noreturn",
    ".maxclusterrank",
    ".reqnctapercluster",
    ".explicitcluster",
    ".blocksareclusters",
];

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }
    fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }
    fn span(&self) -> Span {
        self.toks[self.pos].span
    }
    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    fn is_dot(&self, d: &str) -> bool {
        matches!(self.peek(), Tok::Dot(q) if q == d)
    }
    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn err<T>(&self, what: &str) -> PResult<T> {
        Err((self.span(), format!("expected {what}, found {}", describe(self.peek()))))
    }
    fn expect(&mut self, p: &str) -> PResult<Span> {
        if self.is(p) {
            Ok(self.bump().span)
        } else {
            self.err(&format!("`{p}`"))
        }
    }
    fn ident(&mut self, what: &str) -> PResult<Ident> {
        match self.peek().clone() {
            Tok::Ident(name) => {
                let span = self.bump().span;
                Ok(Ident { name, span })
            }
            _ => self.err(what),
        }
    }
    fn int(&mut self, what: &str) -> PResult<u64> {
        match *self.peek() {
            Tok::Int(v, _) => {
                self.bump();
                Ok(v)
            }
            _ => self.err(what),
        }
    }
    fn string(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Str(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.err("a string"),
        }
    }
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err((self.span(), format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// After an error: skip to just past the next `;` or to a `}` that closes
    /// the construct the error was in.
    fn recover(&mut self) {
        let mut depth = 0i32;
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Punct(";") if depth == 0 => {
                    self.bump();
                    return;
                }
                Tok::Punct("{") => depth += 1,
                Tok::Punct("}") => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    fn report(&mut self, (span, msg): (Span, String)) {
        self.errors.push(self.src.diagnostic(span, msg));
    }

    /// The `major.minor` text of a version token.
    fn version(&mut self) -> PResult<(u32, u32)> {
        let t = self.bump();
        let text = self.src.text.get(t.span.start as usize..t.span.end as usize).unwrap_or("");
        let parsed = match t.tok {
            Tok::Float(_) => text.split_once('.').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?))),
            _ => None,
        };
        parsed.ok_or((t.span, format!("expected a version `major.minor`, found {}", describe(&t.tok))))
    }

    fn module(&mut self) -> PResult<Module> {
        // SYN-05: .version, then .target, first.
        if !self.is_dot(".version") {
            return self.err("`.version` at the start of the file");
        }
        self.bump();
        let version_span = self.span();
        let version = self.version()?;
        if !self.is_dot(".target") {
            return self.err("`.target` after `.version`");
        }
        self.bump();
        let mut target = vec![self.ident("a target name (e.g. sm_75)")?];
        while self.eat(",") {
            target.push(self.ident("a target name")?);
        }
        let mut address_size = None;
        let address_size_span = self.span();
        if self.is_dot(".address_size") {
            self.bump();
            let at = self.span();
            let v = self.int("32 or 64")?;
            if v != 32 && v != 64 {
                return Err((at, format!("address size must be 32 or 64, not {v}")));
            }
            address_size = Some(v as u32);
        }
        let mut items = vec![];
        while *self.peek() != Tok::Eof {
            let before = self.pos;
            match self.item() {
                Ok(Some(i)) => items.push(i),
                Ok(None) => {}
                Err(e) => {
                    self.report(e);
                    self.recover();
                    if self.is("}") {
                        self.bump();
                    }
                }
            }
            if self.pos == before {
                self.bump();
            }
        }
        Ok(Module { version, version_span, target, address_size, address_size_span, items })
    }

    fn item(&mut self) -> PResult<Option<Item>> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Dot(d) if d == ".file" => {
                self.bump();
                let index = self.int("a file number")?;
                let name = self.string()?;
                let mut extra = vec![];
                while self.eat(",") {
                    extra.push(self.int("a number")?);
                }
                Ok(Some(Item::File { index, name, extra, span: start.to(self.prev_span()) }))
            }
            Tok::Dot(d) if d == ".section" => {
                self.bump();
                let name = match self.bump().tok {
                    Tok::Dot(n) | Tok::Ident(n) => n,
                    t => return Err((self.prev_span(), format!("expected a section name, found {}", describe(&t)))),
                };
                let open = self.expect("{")?;
                let mut depth = 1;
                while depth > 0 {
                    match self.bump().tok {
                        Tok::Punct("{") => depth += 1,
                        Tok::Punct("}") => depth -= 1,
                        Tok::Eof => return Err((open, "unclosed `{` of this section".into())),
                        _ => {}
                    }
                }
                let body = self.src.text[open.end as usize..self.prev_span().start as usize].trim().to_string();
                Ok(Some(Item::Section { name, body, span: start.to(self.prev_span()) }))
            }
            Tok::Dot(d) if d == ".pragma" => {
                let (args, span) = self.pragma()?;
                Ok(Some(Item::Pragma { args, span }))
            }
            Tok::Dot(d) if d == ".version" || d == ".target" || d == ".address_size" => {
                Err((start, format!("`{d}` may appear only once, at the start of the file")))
            }
            Tok::Dot(_) => {
                let linkage = self.linkage();
                if self.is_dot(".entry") || self.is_dot(".func") {
                    return Ok(Some(Item::Func(self.function(linkage, start)?)));
                }
                let v = self.var_decl(linkage, start)?;
                self.expect(";")?;
                Ok(Some(Item::Var(v)))
            }
            Tok::Punct(";") => {
                self.bump();
                Ok(None)
            }
            t => Err((start, format!("expected a directive (`.entry`, `.func`, `.global`, ...), found {}", describe(&t)))),
        }
    }

    fn linkage(&mut self) -> Option<Linkage> {
        let mut l = None;
        while let Tok::Dot(d) = self.peek() {
            match LINKAGE.iter().find(|(n, _)| n == d) {
                Some((_, k)) => {
                    l = Some(*k);
                    self.bump();
                }
                None => break,
            }
        }
        l
    }

    fn pragma(&mut self) -> PResult<(Vec<String>, Span)> {
        let start = self.bump().span;
        let mut args = vec![self.string()?];
        while self.eat(",") {
            args.push(self.string()?);
        }
        let end = self.expect(";")?;
        Ok((args, start.to(end)))
    }

    fn function(&mut self, linkage: Option<Linkage>, start: Span) -> PResult<Function> {
        let entry = self.is_dot(".entry");
        self.bump();
        let mut rets = vec![];
        if !entry && self.is("(") {
            rets = self.param_list()?;
        }
        let name = self.ident("a function name")?;
        let params = if self.is("(") { self.param_list()? } else { vec![] };
        let mut attrs = vec![];
        loop {
            match self.peek().clone() {
                Tok::Dot(d) if FUNC_ATTRS.contains(&d.as_str()) => {
                    let span = self.bump().span;
                    let mut args = vec![];
                    if matches!(self.peek(), Tok::Int(..)) {
                        args.push(self.expr()?);
                        while self.eat(",") {
                            args.push(self.expr()?);
                        }
                    }
                    attrs.push(FuncAttr { name: Ident { name: d, span }, args, strings: vec![] });
                }
                Tok::Dot(d) if d == ".pragma" => {
                    let span = self.span();
                    let (strings, _) = self.pragma()?;
                    attrs.push(FuncAttr { name: Ident { name: d, span }, args: vec![], strings });
                }
                _ => break,
            }
        }
        let body = if self.eat(";") {
            None
        } else if self.is("{") {
            Some(self.block()?)
        } else {
            return self.err("`{` or `;` after the function signature");
        };
        Ok(Function { entry, linkage, rets, name, params, attrs, body, span: start.to(self.prev_span()) })
    }

    fn param_list(&mut self) -> PResult<Vec<VarDecl>> {
        self.expect("(")?;
        let mut v = vec![];
        if self.eat(")") {
            return Ok(v);
        }
        loop {
            let start = self.span();
            v.push(self.decl(None, start, false)?);
            if self.eat(")") {
                return Ok(v);
            }
            self.expect(",")?;
        }
    }

    /// `space [.align N] [.ptr ...] [.vN] type declarators` (no `;`).
    fn var_decl(&mut self, linkage: Option<Linkage>, start: Span) -> PResult<VarDecl> {
        self.decl(linkage, start, true)
    }

    /// A declaration; `multi`: several declarators may follow (not in parameter lists).
    fn decl(&mut self, linkage: Option<Linkage>, start: Span, multi: bool) -> PResult<VarDecl> {
        let space = match self.peek() {
            Tok::Dot(d) => Space::from_name(d),
            _ => None,
        }
        .ok_or_else(|| {
            (self.span(), format!("expected a state space (`.reg`, `.global`, `.param`, ...), found {}", describe(self.peek())))
        })?;
        self.bump();
        let (mut align, mut vector, mut ty, mut ptr) = (None, None, None, None);
        let mut vector_span = Span::new(start.start as usize, start.start as usize);
        loop {
            let at = self.span();
            match self.peek().clone() {
                Tok::Dot(d) if d == ".align" => {
                    self.bump();
                    let n = self.int("an alignment")?;
                    if !n.is_power_of_two() {
                        return Err((self.prev_span(), format!("alignment {n} is not a power of two")));
                    }
                    align = Some(n);
                }
                Tok::Dot(d) if d == ".v2" || d == ".v4" || d == ".v8" => {
                    vector_span = self.bump().span;
                    vector = Some(d[2..].parse().unwrap_or(4));
                }
                Tok::Dot(d) if d == ".ptr" => {
                    self.bump();
                    let mut p = PtrAttr { space: None, align: None };
                    if let Tok::Dot(s) = self.peek() {
                        if let Some(sp) = Space::from_name(s) {
                            p.space = Some(sp);
                            self.bump();
                        }
                    }
                    if self.is_dot(".align") {
                        self.bump();
                        p.align = Some(self.int("an alignment")?);
                    }
                    ptr = Some(p);
                }
                Tok::Dot(d) => match Type::from_name(&d) {
                    Some(t) if ty.is_none() => {
                        self.bump();
                        ty = Some(t);
                    }
                    Some(_) => return Err((at, format!("a second type `{d}` in one declaration"))),
                    None => return Err((at, format!("`{d}` is not a type or declaration attribute"))),
                },
                _ => break,
            }
        }
        let ty =
            ty.ok_or_else(|| (self.span(), format!("expected a type (`.b32`, `.u64`, `.f32`, ...), found {}", describe(self.peek()))))?;
        let mut names = vec![self.declarator()?];
        while multi && self.eat(",") {
            names.push(self.declarator()?);
        }
        Ok(VarDecl { linkage, space, align, vector, vector_span, ty, ptr, names, span: start.to(self.prev_span()) })
    }

    fn declarator(&mut self) -> PResult<Declarator> {
        let name = match self.peek().clone() {
            // `_` names the unnamed parameters of a call prototype.
            Tok::Ident(n) => Ident { name: n, span: self.bump().span },
            _ => return self.err("a variable name"),
        };
        let mut count = None;
        if self.is("<") {
            self.bump();
            let at = self.span();
            let n = self.int("a register count")?;
            count = Some(u32::try_from(n).map_err(|_| (at, format!("register count {n} is too large")))?);
            self.expect(">")?;
        }
        let mut dims = vec![];
        while self.eat("[") {
            if self.eat("]") {
                dims.push(None);
            } else {
                let at = self.span();
                let e = self.expr()?;
                let v = super::expr::eval_int(&e).map_err(|m| (at, m))?;
                dims.push(Some(v));
                self.expect("]")?;
            }
        }
        let (init, init_span) = if self.is("=") {
            let eq = self.bump().span;
            (Some(self.init()?), eq.to(self.prev_span()))
        } else {
            let end = self.prev_span().end as usize;
            (None, Span::new(end, end))
        };
        Ok(Declarator { name, count, dims, init, init_span })
    }

    fn init(&mut self) -> PResult<Init> {
        if self.is("{") {
            self.enter()?;
            let start = self.bump().span;
            let mut v = vec![];
            if !self.is("}") {
                v.push(self.init()?);
                while self.eat(",") {
                    v.push(self.init()?);
                }
            }
            let end = self.expect("}")?;
            self.leave();
            return Ok(Init::List(v, start.to(end)));
        }
        if matches!(self.peek(), Tok::Ident(n) if n == "generic") && matches!(self.peek_at(1), Tok::Punct("(")) {
            self.bump();
            self.bump();
            let name = self.ident("a variable name")?;
            self.expect(")")?;
            return Ok(Init::Generic(name));
        }
        Ok(Init::Expr(self.expr()?))
    }

    fn block(&mut self) -> PResult<Block> {
        self.enter()?;
        let start = self.expect("{")?;
        let mut stmts = vec![];
        loop {
            if self.is("}") {
                break;
            }
            if *self.peek() == Tok::Eof {
                self.leave();
                let (line, _) = self.src.line_col(start.start as usize);
                return Err((self.span(), format!("expected `}}` to close the block opened at line {line}, found the end of the file")));
            }
            let before = self.pos;
            match self.stmt() {
                Ok(Some(s)) => stmts.push(s),
                Ok(None) => {}
                Err(e) => {
                    let nested = e.1.starts_with("nesting deeper");
                    self.report(e);
                    if nested {
                        self.leave();
                        return Err((start, "giving up on this block".into()));
                    }
                    self.recover();
                }
            }
            if self.pos == before {
                self.bump();
            }
        }
        let end = self.expect("}")?;
        self.leave();
        Ok(Block { stmts, span: start.to(end) })
    }

    fn stmt(&mut self) -> PResult<Option<Stmt>> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Punct("{") => Ok(Some(Stmt::Block(self.block()?))),
            Tok::Punct(";") => {
                self.bump();
                Ok(None)
            }
            Tok::Ident(name) if matches!(self.peek_at(1), Tok::Punct(":")) => {
                let label = Ident { name, span: self.bump().span };
                self.bump();
                if self.is_dot(".callprototype") {
                    return Ok(Some(self.call_proto(label, start)?));
                }
                Ok(Some(Stmt::Label(label)))
            }
            Tok::Dot(d) if d == ".pragma" => {
                let (args, span) = self.pragma()?;
                Ok(Some(Stmt::Pragma { args, span }))
            }
            Tok::Dot(d) if d == ".loc" => {
                self.bump();
                let mut args = vec![self.int("a file number")?, self.int("a line number")?, self.int("a column number")?];
                let mut rest = String::new();
                if self.is(",") {
                    // `, function_name ..., inlined_at ...` to the end of the line.
                    let line = self.src.line_col(self.prev_span().end as usize).0;
                    let from = self.span().start as usize;
                    let mut to = from;
                    while *self.peek() != Tok::Eof && self.src.line_col(self.span().start as usize).0 == line {
                        to = self.bump().span.end as usize;
                    }
                    rest = self.src.text[from..to].to_string();
                }
                args.shrink_to_fit();
                Ok(Some(Stmt::Loc { args, rest, span: start.to(self.prev_span()) }))
            }
            Tok::Dot(_) => {
                let v = self.var_decl(None, start)?;
                self.expect(";")?;
                Ok(Some(Stmt::Var(v)))
            }
            Tok::Punct("@") | Tok::Ident(_) => Ok(Some(Stmt::Inst(self.inst()?))),
            t => Err((start, format!("expected an instruction, a label or a declaration, found {}", describe(&t)))),
        }
    }

    fn call_proto(&mut self, name: Ident, start: Span) -> PResult<Stmt> {
        self.bump();
        let rets = if self.is("(") { self.param_list()? } else { vec![] };
        match self.peek() {
            Tok::Ident(n) if n == "_" => {
                self.bump();
            }
            _ => return self.err("`_` in a call prototype"),
        }
        let params = if self.is("(") { self.param_list()? } else { vec![] };
        let noreturn = self.is_dot(".noreturn");
        if noreturn {
            self.bump();
        }
        let end = self.expect(";")?;
        Ok(Stmt::CallProto { name, rets, params, noreturn, span: start.to(end) })
    }

    fn inst(&mut self) -> PResult<Inst> {
        let start = self.span();
        let mut guard = None;
        if self.eat("@") {
            let neg = self.eat("!");
            let pred = self.ident("a predicate register after `@`")?;
            guard = Some(Guard { neg, pred });
        }
        let opcode = self.ident("an instruction")?;
        let mut mods = vec![];
        // ptxas accepts whitespace before a suffix (`ld .global`).
        while let Tok::Dot(d) = self.peek().clone() {
            mods.push(Ident { name: d, span: self.bump().span });
        }
        let mut args = vec![];
        let is_call = opcode.name == "call";
        if self.is("}") || *self.peek() == Tok::Eof {
            return self.err("`;`");
        }
        if super::insts::UNSUPPORTED.contains(&opcode.name.as_str()) {
            // Texture, surface, matrix operands have forms of their own (`[tex, {%r1}]`):
            // skipped, so that the checker reports the instruction as not supported.
            let mut depth = 0u32;
            while !(self.is(";") || self.is("}") && depth == 0 || *self.peek() == Tok::Eof) {
                depth = if self.is("{") {
                    depth + 1
                } else if self.is("}") {
                    depth - 1
                } else {
                    depth
                };
                self.bump();
            }
            let end = self.expect(";")?;
            return Ok(Inst::new(guard, opcode, mods, args, start.to(end)));
        }
        if !self.is(";") {
            args.push(self.operand(is_call)?);
            while self.eat(",") {
                args.push(self.operand(is_call)?);
            }
        }
        if !self.is(";") {
            return Err((self.span(), format!("expected `,` or `;` after an operand, found {}", describe(self.peek()))));
        }
        let end = self.bump().span;
        Ok(Inst::new(guard, opcode, mods, args, start.to(end)))
    }

    /// A name with attached `.x` components (`%tid.x`).
    fn name(&mut self) -> PResult<Ident> {
        let mut id = self.ident("a name")?;
        // Components (`%tid.x`); ptxas accepts whitespace before them.
        while let Tok::Dot(d) = self.peek().clone() {
            if !matches!(d.as_str(), ".x" | ".y" | ".z" | ".w" | ".r" | ".g" | ".b" | ".a") && self.toks[self.pos].spaced {
                break;
            }
            id.name.push_str(&d);
            id.span = id.span.to(self.bump().span);
        }
        Ok(id)
    }

    fn operand(&mut self, in_call: bool) -> PResult<Operand> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Punct("{") => {
                self.enter()?;
                self.bump();
                let mut v = vec![self.operand(false)?];
                while self.eat(",") {
                    v.push(self.operand(false)?);
                }
                let end = self.expect("}")?;
                self.leave();
                Ok(Operand::Vector(v, start.to(end)))
            }
            Tok::Punct("(") if in_call => {
                self.bump();
                let mut v = vec![];
                if !self.is(")") {
                    v.push(self.operand(false)?);
                    while self.eat(",") {
                        v.push(self.operand(false)?);
                    }
                }
                let end = self.expect(")")?;
                Ok(Operand::List(v, start.to(end)))
            }
            Tok::Punct("[") => Ok(Operand::Addr(self.address()?)),
            Tok::Punct("!") if matches!(self.peek_at(1), Tok::Ident(_)) => {
                self.bump();
                Ok(Operand::Not(self.name()?))
            }
            Tok::Ident(n) if n == "_" => {
                self.bump();
                Ok(Operand::Sink(start))
            }
            Tok::Ident(_) => {
                let id = self.name()?;
                if self.eat("|") {
                    let q = self.name()?;
                    return Ok(Operand::Pair(id, q));
                }
                if matches!(self.peek(), Tok::Punct(p) if BINARY.iter().any(|(q, _)| q == p) || *p == "?") {
                    // A constant expression that starts with a symbol (`sym+4`).
                    let lhs = Expr { kind: ExprKind::Name(id.name), span: id.span };
                    return Ok(Operand::Expr(self.expr_from(lhs, 0)?));
                }
                Ok(Operand::Name(id))
            }
            _ => Ok(Operand::Expr(self.expr()?)),
        }
    }

    fn address(&mut self) -> PResult<Address> {
        let start = self.expect("[")?;
        let mut base = None;
        let mut offset = None;
        if let Tok::Ident(_) = self.peek() {
            base = Some(self.name()?);
            if self.is("+") || self.is("-") {
                let neg = self.bump().tok == Tok::Punct("-");
                let e = self.expr()?;
                offset = Some(if neg { Expr { span: e.span, kind: ExprKind::Unary(UnOp::Neg, Box::new(e)) } } else { e });
            }
        } else {
            offset = Some(self.expr()?);
        }
        let end = self.expect("]")?;
        Ok(Address { base, offset, span: start.to(end) })
    }

    pub fn expr(&mut self) -> PResult<Expr> {
        let lhs = self.unary()?;
        self.expr_from(lhs, 0)
    }

    /// Precedence climbing (T4) from an already parsed left operand.
    fn expr_from(&mut self, mut lhs: Expr, min: u8) -> PResult<Expr> {
        self.enter()?;
        let mut n = 0;
        loop {
            let Some(op) = self.binop() else { break };
            let prec = op.precedence();
            if prec < min.max(1) {
                break;
            }
            // Trees are dropped, evaluated and printed recursively: bound their size.
            n += 1;
            if n > MAX_OPERATORS {
                return Err((self.span(), format!("constant expression longer than {MAX_OPERATORS} operators")));
            }
            self.bump();
            let mut rhs = self.unary()?;
            while let Some(next) = self.binop() {
                if next.precedence() <= prec {
                    break;
                }
                rhs = self.expr_from(rhs, prec + 1)?;
            }
            let span = lhs.span.to(rhs.span);
            lhs = Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span };
        }
        if min == 0 && self.eat("?") {
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr()?;
            let span = lhs.span.to(b.span);
            lhs = Expr { kind: ExprKind::Cond(Box::new(lhs), Box::new(a), Box::new(b)), span };
        }
        self.leave();
        Ok(lhs)
    }

    fn binop(&self) -> Option<BinOp> {
        match self.peek() {
            Tok::Punct(p) => BINARY.iter().find(|(q, _)| q == p).map(|(_, o)| *o),
            _ => None,
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        self.enter()?;
        let start = self.span();
        let e = match self.peek().clone() {
            Tok::Punct(p @ ("+" | "-" | "!" | "~")) => {
                self.bump();
                let op = match p {
                    "+" => UnOp::Plus,
                    "-" => UnOp::Neg,
                    "!" => UnOp::Not,
                    _ => UnOp::BitNot,
                };
                let inner = self.unary()?;
                Expr { span: start.to(inner.span), kind: ExprKind::Unary(op, Box::new(inner)) }
            }
            Tok::Punct("(") => {
                self.bump();
                if let Tok::Dot(d) = self.peek().clone() {
                    if (d == ".s64" || d == ".u64") && matches!(self.peek_at(1), Tok::Punct(")")) {
                        self.bump();
                        self.bump();
                        let inner = self.unary()?;
                        self.leave();
                        return Ok(Expr { span: start.to(inner.span), kind: ExprKind::Cast(d == ".s64", Box::new(inner)) });
                    }
                }
                let mut inner = self.expr()?;
                let end = self.expect(")")?;
                inner.span = start.to(end);
                inner
            }
            Tok::Int(v, u) => Expr { kind: ExprKind::Int(v, u), span: self.bump().span },
            Tok::Float(v) => Expr { kind: ExprKind::Float(v), span: self.bump().span },
            Tok::F32Bits(v) => Expr { kind: ExprKind::F32Bits(v), span: self.bump().span },
            Tok::F64Bits(v) => Expr { kind: ExprKind::F64Bits(v), span: self.bump().span },
            Tok::Ident(_) => {
                let id = self.name()?;
                Expr { kind: ExprKind::Name(id.name), span: id.span }
            }
            _ => return self.err("an operand"),
        };
        self.leave();
        Ok(e)
    }
}

const BINARY: &[(&str, BinOp)] = &[
    ("*", BinOp::Mul),
    ("/", BinOp::Div),
    ("%", BinOp::Rem),
    ("+", BinOp::Add),
    ("-", BinOp::Sub),
    ("<<", BinOp::Shl),
    (">>", BinOp::Shr),
    ("<", BinOp::Lt),
    (">", BinOp::Gt),
    ("<=", BinOp::Le),
    (">=", BinOp::Ge),
    ("==", BinOp::Eq),
    ("!=", BinOp::Ne),
    ("&", BinOp::And),
    ("^", BinOp::Xor),
    ("|", BinOp::Or),
    ("&&", BinOp::LAnd),
    ("||", BinOp::LOr),
];
