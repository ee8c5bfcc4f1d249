//! Constant expressions, evaluated with the exact rules of PTX §4.5.4-4.5.6
//! (T4 precedence is the parser's; T5 typing is here): 64-bit integers
//! typed `.s64`/`.u64` with the usual conversions, `%` and `~` unsigned,
//! shifts keeping the left operand's type, f64 arithmetic, no mixing.

use super::ast::{BinOp, Expr, ExprKind, UnOp};
use super::source::Span;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    S64(i64),
    U64(u64),
    F64(f64),
}

impl Value {
    pub fn bits(self) -> u64 {
        match self {
            Value::S64(v) => v as u64,
            Value::U64(v) => v,
            Value::F64(v) => v.to_bits(),
        }
    }
    pub fn is_int(self) -> bool {
        !matches!(self, Value::F64(_))
    }
}

pub type EResult = Result<Value, (Span, String)>;

/// Evaluates `e`; `name` gives the value of a symbol (or None: not a constant).
pub fn eval(e: &Expr, name: &dyn Fn(&str) -> Option<Value>) -> EResult {
    let err = |m: String| Err((e.span, m));
    match &e.kind {
        ExprKind::Int(v, true) => Ok(Value::U64(*v)),
        ExprKind::Int(v, false) => Ok(Value::S64(*v as i64)),
        ExprKind::Float(v) => Ok(Value::F64(*v)),
        ExprKind::F64Bits(v) => Ok(Value::F64(f64::from_bits(*v))),
        // SYN-43: a 0f constant stands alone; callers take it before evaluating.
        ExprKind::F32Bits(_) => err("a `0f` single-precision constant cannot be part of a constant expression".into()),
        ExprKind::Name(n) => name(n).map_or_else(|| err(format!("`{n}` is not a constant")), Ok),
        ExprKind::Cast(signed, inner) => match eval(inner, name)? {
            Value::F64(_) => err("`(.s64)`/`(.u64)` casts apply to integers only".into()),
            v if *signed => Ok(Value::S64(v.bits() as i64)),
            v => Ok(Value::U64(v.bits())),
        },
        ExprKind::Unary(op, inner) => {
            let v = eval(inner, name)?;
            match (op, v) {
                (UnOp::Plus, v) => Ok(v),
                (UnOp::Neg, Value::S64(x)) => Ok(Value::S64(x.wrapping_neg())),
                (UnOp::Neg, Value::U64(x)) => Ok(Value::U64(x.wrapping_neg())),
                (UnOp::Neg, Value::F64(x)) => Ok(Value::F64(-x)),
                (UnOp::Not, Value::F64(_)) | (UnOp::BitNot, Value::F64(_)) => err("`!` and `~` apply to integers only".into()),
                (UnOp::Not, v) => Ok(Value::S64((v.bits() == 0) as i64)),
                (UnOp::BitNot, v) => Ok(Value::U64(!v.bits())),
            }
        }
        ExprKind::Cond(c, a, b) => {
            let c = eval(c, name)?;
            if !c.is_int() {
                return err("the condition of `?:` must be an integer".into());
            }
            let (x, y) = (eval(a, name)?, eval(b, name)?);
            let (x, y) = match (x, y) {
                (Value::F64(_), Value::F64(_)) => (x, y),
                (Value::F64(_), _) | (_, Value::F64(_)) => return err("`?:` needs two integers or two doubles".into()),
                _ => convert(x, y),
            };
            Ok(if c.bits() != 0 { x } else { y })
        }
        ExprKind::Binary(op, a, b) => binary(*op, eval(a, name)?, eval(b, name)?).map_err(|m| (e.span, m)),
    }
}

/// The usual arithmetic conversions (SYN-54).
fn convert(x: Value, y: Value) -> (Value, Value) {
    match (x, y) {
        (Value::U64(_), _) | (_, Value::U64(_)) => (Value::U64(x.bits()), Value::U64(y.bits())),
        _ => (x, y),
    }
}

fn binary(op: BinOp, x: Value, y: Value) -> Result<Value, String> {
    use BinOp::*;
    if let (Value::F64(a), Value::F64(b)) = (x, y) {
        let t = |c: bool| Ok(Value::S64(c as i64));
        return match op {
            Add => Ok(Value::F64(a + b)),
            Sub => Ok(Value::F64(a - b)),
            Mul => Ok(Value::F64(a * b)),
            Div => Ok(Value::F64(a / b)),
            Lt => t(a < b),
            Gt => t(a > b),
            Le => t(a <= b),
            Ge => t(a >= b),
            Eq => t(a == b),
            Ne => t(a != b),
            _ => Err(format!("`{}` applies to integers only", op.text())),
        };
    }
    if !x.is_int() || !y.is_int() {
        return Err(format!("`{}` mixes an integer and a double (no implicit conversion)", op.text()));
    }
    let truth = |c: bool| Ok(Value::S64(c as i64));
    match op {
        Rem => {
            let (a, b) = (x.bits(), y.bits());
            if b == 0 {
                return Err("remainder by zero".into());
            }
            Ok(Value::U64(a % b))
        }
        Shl | Shr => {
            let n = y.bits();
            if n >= 64 {
                return Err(format!("shift by {n} (64 or more)"));
            }
            Ok(match (op, x) {
                (Shl, Value::S64(a)) => Value::S64(a.wrapping_shl(n as u32)),
                (Shl, v) => Value::U64(v.bits() << n),
                (_, Value::S64(a)) => Value::S64(a >> n),
                (_, v) => Value::U64(v.bits() >> n),
            })
        }
        LAnd => truth(x.bits() != 0 && y.bits() != 0),
        LOr => truth(x.bits() != 0 || y.bits() != 0),
        _ => match convert(x, y) {
            (Value::S64(a), Value::S64(b)) => match op {
                Add => Ok(Value::S64(a.wrapping_add(b))),
                Sub => Ok(Value::S64(a.wrapping_sub(b))),
                Mul => Ok(Value::S64(a.wrapping_mul(b))),
                Div if b == 0 => Err("division by zero".into()),
                Div => Ok(Value::S64(a.wrapping_div(b))),
                Lt => truth(a < b),
                Gt => truth(a > b),
                Le => truth(a <= b),
                Ge => truth(a >= b),
                Eq => truth(a == b),
                Ne => truth(a != b),
                // SYN-58: follow the text (usual conversions).
                And => Ok(Value::S64(a & b)),
                Xor => Ok(Value::S64(a ^ b)),
                _ => Ok(Value::S64(a | b)),
            },
            (a, b) => {
                let (a, b) = (a.bits(), b.bits());
                match op {
                    Add => Ok(Value::U64(a.wrapping_add(b))),
                    Sub => Ok(Value::U64(a.wrapping_sub(b))),
                    Mul => Ok(Value::U64(a.wrapping_mul(b))),
                    Div if b == 0 => Err("division by zero".into()),
                    Div => Ok(Value::U64(a / b)),
                    Lt => truth(a < b),
                    Gt => truth(a > b),
                    Le => truth(a <= b),
                    Ge => truth(a >= b),
                    Eq => truth(a == b),
                    Ne => truth(a != b),
                    And => Ok(Value::U64(a & b)),
                    Xor => Ok(Value::U64(a ^ b)),
                    _ => Ok(Value::U64(a | b)),
                }
            }
        },
    }
}

/// An integer constant without symbols (array sizes, counts).
pub fn eval_int(e: &Expr) -> Result<u64, String> {
    match eval(e, &|_| None) {
        Ok(v) if v.is_int() => Ok(v.bits()),
        Ok(_) => Err("expected an integer constant".into()),
        Err((_, m)) => Err(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::parser::Parser;

    fn ev(s: &str) -> Value {
        let src = crate::ptx::source::SourceFile::new("e", &format!(".version 1.4\n.target sm_10\n.global .u64 x = {s};\n"));
        let m = crate::ptx::parser::parse(&src).unwrap_or_else(|e| panic!("{s}: {}", e[0]));
        let _ = std::mem::size_of::<Parser>();
        match &m.items[0] {
            crate::ptx::ast::Item::Var(v) => match v.names[0].init.as_ref().unwrap() {
                crate::ptx::ast::Init::Expr(e) => eval(e, &|_| None).unwrap(),
                _ => unreachable!(),
            },
            _ => unreachable!(),
        }
    }

    #[test]
    fn typing_rules_of_t5() {
        assert_eq!(ev("-7 % 4"), Value::U64(1)); // SYN-56
        assert_eq!(ev("-8 >> 1"), Value::S64(-4)); // SYN-57
        assert_eq!(ev("(.u64)-8 >> 1"), Value::U64(0x7FFF_FFFF_FFFF_FFFC));
        assert_eq!(ev("-1 < 1U"), Value::S64(0)); // SYN-59
        assert_eq!(ev("-1U"), Value::U64(u64::MAX)); // SYN-60
        assert_eq!(ev("~0"), Value::U64(u64::MAX));
        assert_eq!(ev("!5"), Value::S64(0));
        assert_eq!(ev("1 + 2 * 3 << 1"), Value::S64(14)); // SYN-52
        assert_eq!(ev("1 ? 2 : 3U"), Value::U64(2)); // SYN-61
        assert_eq!(ev("7 / -2"), Value::S64(-3)); // SYN-53: toward zero
        assert_eq!(ev("1.5 * 2.0"), Value::F64(3.0)); // SYN-41
        assert_eq!(ev("0d3FF0000000000000 + 1.0"), Value::F64(2.0));
        assert_eq!(ev("1 || 0 && 0"), Value::S64(1));
    }

    #[test]
    fn errors() {
        let bad = |s: &str| {
            let src = crate::ptx::source::SourceFile::new("e", &format!(".version 1.4\n.target sm_10\n.global .u64 x = {s};\n"));
            let m = crate::ptx::parser::parse(&src).unwrap();
            match &m.items[0] {
                crate::ptx::ast::Item::Var(v) => match v.names[0].init.as_ref().unwrap() {
                    crate::ptx::ast::Init::Expr(e) => eval(e, &|_| None).unwrap_err().1,
                    _ => unreachable!(),
                },
                _ => unreachable!(),
            }
        };
        assert!(bad("1 / 0").contains("division by zero")); // SYN-53
        assert!(bad("1 + 1.0").contains("mixes")); // SYN-51
        assert!(bad("0f3f800000 + 1").contains("0f")); // SYN-43
        assert!(bad("1 << 64").contains("shift"));
    }
}
