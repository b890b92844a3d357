//===- Constraint.cpp - Known-constraint expressions ----------------------===//
//
// A recursive-descent parser with static type checking, and an evaluator
// over (partial) assignments. Grammar, loosest binding first:
//
//   or         := and ('||' and)*
//   and        := comparison ('&&' comparison)*
//   comparison := additive (('=='|'!='|'<'|'<='|'>'|'>=') additive)?
//   additive   := term (('+'|'-') term)*
//   term       := unary (('*'|'/'|'%') unary)*
//   unary      := ('!'|'-'|'+') unary | primary
//   primary    := number | string | 'true' | 'false' | '(' or ')'
//               | ('min'|'max') '(' or (',' or)+ ')'
//               | name | name '[' or ']'
//
//===----------------------------------------------------------------------===//

#include "tuner/Space/Space.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

using namespace tuner;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace {
/// Static and dynamic types of expressions. Booleans take part in arithmetic
/// and comparisons as 0/1.
enum class Type { Int, Real, Bool, String, Perm };

bool isIntLike(Type t) { return t == Type::Int || t == Type::Bool; }
bool isNumeric(Type t) { return isIntLike(t) || t == Type::Real; }

StringRef describe(Type t) {
  switch (t) {
  case Type::Int:
    return "an integer";
  case Type::Real:
    return "a real number";
  case Type::Bool:
    return "a boolean";
  case Type::String:
    return "a string";
  case Type::Perm:
    return "a permutation";
  }
  llvm_unreachable("unknown type");
}

Type typeOfParameter(const Parameter &p) {
  switch (p.kind) {
  case ParamKind::Ordinal:
    return p.isRealOrdinal() ? Type::Real : Type::Int;
  case ParamKind::Integer:
    return Type::Int;
  case ParamKind::Real:
    return Type::Real;
  case ParamKind::Categorical:
    return Type::String;
  case ParamKind::Boolean:
    return Type::Bool;
  case ParamKind::Permutation:
    return Type::Perm;
  }
  llvm_unreachable("unknown ParamKind");
}
} // namespace

struct Constraint::Node {
  enum Kind {
    IntLit,
    RealLit,
    BoolLit,
    StrLit,
    Param,
    Index, ///< operands[0]: the index; `param`: the permutation.
    Neg,
    Not,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Min,
    Max,
  };
  Kind kind;
  Type type;
  int64_t intValue = 0;
  double realValue = 0;
  std::string stringValue;
  size_t param = 0;
  std::vector<std::unique_ptr<Node>> operands;
  /// Levels of the tree below and at this node (1 for a leaf): evaluating,
  /// copying and destroying a tree recurse as deep.
  unsigned depth = 1;

  Node(Kind kind, Type type) : kind(kind), type(type) {}
};

using Node = Constraint::Node;
using NodePtr = std::unique_ptr<Node>;

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

namespace {
enum class Tok {
  End,
  Error,
  Ident,
  Int,
  Real,
  String,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  EqEq,
  NotEq,
  Less,
  LessEq,
  Greater,
  GreaterEq,
  AndAnd,
  OrOr,
  Bang,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
};

struct Token {
  Tok kind = Tok::End;
  size_t offset = 0, length = 0;
  int64_t intValue = 0;
  double realValue = 0;
  std::string stringValue; ///< String literals; the message of Tok::Error.
};

class Lexer {
public:
  explicit Lexer(StringRef text) : text(text) {}

  Token next() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
    Token token;
    token.offset = pos;
    if (pos == text.size())
      return token;
    char c = text[pos];
    if (llvm::isAlpha(c) || c == '_') {
      size_t end = pos;
      while (end < text.size() && isNameChar(text[end]))
        ++end;
      return finish(token, Tok::Ident, end);
    }
    if (llvm::isDigit(c) ||
        (c == '.' && pos + 1 < text.size() && llvm::isDigit(text[pos + 1])))
      return lexNumber(token);
    if (c == '"' || c == '\'')
      return lexString(token);

    auto two = [&](char second) {
      return pos + 1 < text.size() && text[pos + 1] == second;
    };
    switch (c) {
    case '+':
      return finish(token, Tok::Plus, pos + 1);
    case '-':
      return finish(token, Tok::Minus, pos + 1);
    case '*':
      return finish(token, Tok::Star, pos + 1);
    case '/':
      return finish(token, Tok::Slash, pos + 1);
    case '%':
      return finish(token, Tok::Percent, pos + 1);
    case '(':
      return finish(token, Tok::LParen, pos + 1);
    case ')':
      return finish(token, Tok::RParen, pos + 1);
    case '[':
      return finish(token, Tok::LBracket, pos + 1);
    case ']':
      return finish(token, Tok::RBracket, pos + 1);
    case ',':
      return finish(token, Tok::Comma, pos + 1);
    case '<':
      return two('=') ? finish(token, Tok::LessEq, pos + 2)
                      : finish(token, Tok::Less, pos + 1);
    case '>':
      return two('=') ? finish(token, Tok::GreaterEq, pos + 2)
                      : finish(token, Tok::Greater, pos + 1);
    case '!':
      return two('=') ? finish(token, Tok::NotEq, pos + 2)
                      : finish(token, Tok::Bang, pos + 1);
    case '=':
      if (two('='))
        return finish(token, Tok::EqEq, pos + 2);
      return fail(token, "unexpected '='; did you mean '=='?");
    case '&':
      if (two('&'))
        return finish(token, Tok::AndAnd, pos + 2);
      return fail(token, "unexpected '&'; did you mean '&&'?");
    case '|':
      if (two('|'))
        return finish(token, Tok::OrOr, pos + 2);
      return fail(token, "unexpected '|'; did you mean '||'?");
    default:
      break;
    }
    if (llvm::isPrint(c))
      return fail(token, llvm::formatv("unexpected character '{0}'", c));
    return fail(token, llvm::formatv("unexpected byte 0x{0:x-2}",
                                     unsigned(static_cast<unsigned char>(c))));
  }

private:
  static bool isNameChar(char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.';
  }

  Token finish(Token &token, Tok kind, size_t end) {
    token.kind = kind;
    token.length = end - token.offset;
    pos = end;
    return token;
  }

  Token fail(Token &token, const llvm::Twine &message) {
    token.kind = Tok::Error;
    token.stringValue = message.str();
    // Stop: every later token is the same error.
    return token;
  }

  Token lexNumber(Token &token) {
    size_t end = pos;
    bool real = false;
    while (end < text.size() && llvm::isDigit(text[end]))
      ++end;
    if (end < text.size() && text[end] == '.') {
      real = true;
      ++end;
      while (end < text.size() && llvm::isDigit(text[end]))
        ++end;
    }
    if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
      size_t exponent = end + 1;
      if (exponent < text.size() &&
          (text[exponent] == '+' || text[exponent] == '-'))
        ++exponent;
      if (exponent < text.size() && llvm::isDigit(text[exponent])) {
        real = true;
        end = exponent;
        while (end < text.size() && llvm::isDigit(text[end]))
          ++end;
      }
    }
    if (end < text.size() && isNameChar(text[end])) {
      while (end < text.size() && isNameChar(text[end]))
        ++end;
      return fail(token, llvm::formatv("invalid number '{0}'",
                                       text.slice(token.offset, end)));
    }
    StringRef spelling = text.slice(token.offset, end);
    if (real) {
      token.realValue = std::strtod(spelling.str().c_str(), nullptr);
      if (!std::isfinite(token.realValue))
        return fail(token,
                    llvm::formatv("number '{0}' is out of range", spelling));
      return finish(token, Tok::Real, end);
    }
    if (spelling.getAsInteger(10, token.intValue))
      return fail(token, llvm::formatv("integer '{0}' does not fit in 64 bits",
                                       spelling));
    return finish(token, Tok::Int, end);
  }

  Token lexString(Token &token) {
    char quote = text[pos];
    size_t end = pos + 1;
    std::string value;
    while (end < text.size() && text[end] != quote) {
      if (text[end] != '\\') {
        value += text[end++];
        continue;
      }
      if (end + 1 >= text.size())
        break;
      char escaped = text[end + 1];
      switch (escaped) {
      case '\\':
      case '"':
      case '\'':
        value += escaped;
        break;
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      default:
        token.offset = end;
        return fail(token, llvm::formatv("unknown escape '\\{0}' in a string",
                                         escaped));
      }
      end += 2;
    }
    if (end >= text.size())
      return fail(token, "unterminated string");
    token.stringValue = std::move(value);
    return finish(token, Tok::String, end + 1);
  }

  StringRef text;
  size_t pos = 0;
};

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

/// Limits that keep parsing and evaluating a constraint within the stack
/// whatever its text: how deep the parser recurses (parentheses, unary
/// operators, indices, min/max arguments), and how deep the expression tree
/// grows (each binary operator adds a level to a left-associative chain).
constexpr unsigned kMaxNesting = 256;
constexpr unsigned kMaxDepth = 4096;

class Parser {
public:
  Parser(StringRef text, const Space &space)
      : text(text), space(space), lexer(text) {
    advance();
  }

  Expected<NodePtr> parse() {
    Expected<NodePtr> root = parseOr();
    if (!root)
      return root.takeError();
    if (Error e = checkDepth())
      return std::move(e);
    if (tok.kind == Tok::RParen)
      return error(tok, "unbalanced ')'");
    if (tok.kind != Tok::End)
      return error(tok, llvm::formatv("unexpected '{0}' after a complete "
                                      "expression",
                                      spelling(tok)));
    if ((*root)->type != Type::Bool)
      return error(
          0, llvm::formatv("the constraint is {0}, not a condition; compare "
                           "it with something (e.g. '... == 0')",
                           describe((*root)->type)));
    return root;
  }

  std::vector<size_t> takeParameters() {
    return std::vector<size_t>(parameters.begin(), parameters.end());
  }

private:
  void advance() {
    if (tok.kind != Tok::Error)
      tok = lexer.next();
  }

  StringRef spelling(const Token &token) const {
    return text.substr(token.offset, token.length);
  }

  Error error(size_t offset, const llvm::Twine &message) const {
    std::string caret;
    for (size_t i = 0; i < offset && i < text.size(); ++i)
      caret += text[i] == '\t' ? '\t' : ' ';
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("constraint '{0}', column {1}: {2}\n  {0}\n  {3}^", text,
                      offset + 1, message.str(), caret));
  }

  /// An error at `token`: the lexer's message for a bad token, else `message`.
  Error error(const Token &token, const llvm::Twine &message) const {
    if (token.kind == Tok::Error)
      return error(token.offset, token.stringValue);
    return error(token.offset, message);
  }

  Error expectedExpression() const {
    if (tok.kind == Tok::End)
      return error(tok, "unexpected end of the constraint; expected an "
                        "expression");
    return error(
        tok, llvm::formatv("expected an expression, got '{0}'", spelling(tok)));
  }

  NodePtr make(Node::Kind kind, Type type, NodePtr lhs, NodePtr rhs = nullptr) {
    auto node = std::make_unique<Node>(kind, type);
    node->depth = lhs->depth + 1;
    node->operands.push_back(std::move(lhs));
    if (rhs) {
      node->depth = std::max(node->depth, rhs->depth + 1);
      node->operands.push_back(std::move(rhs));
    }
    if (node->depth > kMaxDepth && !tooDeepAt)
      tooDeepAt = tok.offset;
    return node;
  }

  /// The error once the tree has grown deeper than kMaxDepth.
  Error checkDepth() const {
    if (!tooDeepAt)
      return Error::success();
    return error(*tooDeepAt,
                 llvm::formatv("the expression is more than {0} operators "
                               "deep; split it into several constraints",
                               kMaxDepth));
  }

  /// Operand of && || !: a boolean or a number (non-zero is true).
  Error checkCondition(const Node &operand, const Token &op) const {
    if (isNumeric(operand.type))
      return Error::success();
    return error(op, llvm::formatv("operator '{0}' needs conditions or "
                                   "numbers, got {1}",
                                   spelling(op), describe(operand.type)));
  }

  Error checkNumber(const Node &operand, const Token &op) const {
    if (isNumeric(operand.type))
      return Error::success();
    return error(op, llvm::formatv("operator '{0}' needs numbers, got {1}",
                                   spelling(op), describe(operand.type)));
  }

  Expected<NodePtr> parseOr() {
    return parseLogical(Tok::OrOr, Node::Or, &Parser::parseAnd);
  }

  Expected<NodePtr> parseAnd() {
    return parseLogical(Tok::AndAnd, Node::And, &Parser::parseComparison);
  }

  /// `operand (op operand)*` for a logical operator whose operands are
  /// conditions, left-associative.
  Expected<NodePtr> parseLogical(Tok opKind, Node::Kind nodeKind,
                                 Expected<NodePtr> (Parser::*operand)()) {
    Expected<NodePtr> lhs = (this->*operand)();
    while (lhs && tok.kind == opKind) {
      Token op = tok;
      advance();
      Expected<NodePtr> rhs = (this->*operand)();
      if (!rhs)
        return rhs.takeError();
      if (Error e = checkCondition(**lhs, op))
        return std::move(e);
      if (Error e = checkCondition(**rhs, op))
        return std::move(e);
      lhs = make(nodeKind, Type::Bool, std::move(*lhs), std::move(*rhs));
    }
    return lhs;
  }

  static std::optional<Node::Kind> comparisonKind(Tok kind) {
    switch (kind) {
    case Tok::EqEq:
      return Node::Eq;
    case Tok::NotEq:
      return Node::Ne;
    case Tok::Less:
      return Node::Lt;
    case Tok::LessEq:
      return Node::Le;
    case Tok::Greater:
      return Node::Gt;
    case Tok::GreaterEq:
      return Node::Ge;
    default:
      return std::nullopt;
    }
  }

  Expected<NodePtr> parseComparison() {
    Expected<NodePtr> lhs = parseAdditive();
    if (!lhs)
      return lhs;
    std::optional<Node::Kind> kind = comparisonKind(tok.kind);
    if (!kind)
      return lhs;
    Token op = tok;
    advance();
    Expected<NodePtr> rhs = parseAdditive();
    if (!rhs)
      return rhs.takeError();
    Type l = (*lhs)->type, r = (*rhs)->type;
    bool comparable = (isNumeric(l) && isNumeric(r)) ||
                      (l == Type::String && r == Type::String);
    if (!comparable)
      return error(op, llvm::formatv("cannot compare {0} with {1}", describe(l),
                                     describe(r)));
    if (comparisonKind(tok.kind))
      return error(tok, "comparisons do not chain; combine them with '&&'");
    return make(*kind, Type::Bool, std::move(*lhs), std::move(*rhs));
  }

  Expected<NodePtr> parseAdditive() {
    Expected<NodePtr> lhs = parseTerm();
    while (lhs && (tok.kind == Tok::Plus || tok.kind == Tok::Minus)) {
      Token op = tok;
      advance();
      Expected<NodePtr> rhs = parseTerm();
      if (!rhs)
        return rhs.takeError();
      lhs = makeArithmetic(op.kind == Tok::Plus ? Node::Add : Node::Sub, op,
                           std::move(*lhs), std::move(*rhs));
    }
    return lhs;
  }

  Expected<NodePtr> parseTerm() {
    Expected<NodePtr> lhs = parseUnary();
    while (lhs && (tok.kind == Tok::Star || tok.kind == Tok::Slash ||
                   tok.kind == Tok::Percent)) {
      Token op = tok;
      advance();
      Expected<NodePtr> rhs = parseUnary();
      if (!rhs)
        return rhs.takeError();
      Node::Kind kind = op.kind == Tok::Star    ? Node::Mul
                        : op.kind == Tok::Slash ? Node::Div
                                                : Node::Mod;
      lhs = makeArithmetic(kind, op, std::move(*lhs), std::move(*rhs));
    }
    return lhs;
  }

  Expected<NodePtr> makeArithmetic(Node::Kind kind, const Token &op,
                                   NodePtr lhs, NodePtr rhs) {
    if (Error e = checkNumber(*lhs, op))
      return std::move(e);
    if (Error e = checkNumber(*rhs, op))
      return std::move(e);
    Type type =
        isIntLike(lhs->type) && isIntLike(rhs->type) ? Type::Int : Type::Real;
    return make(kind, type, std::move(lhs), std::move(rhs));
  }

  Expected<NodePtr> parseUnary() {
    // Every recursion of the parser passes here.
    if (Error e = checkDepth())
      return std::move(e);
    if (nesting >= kMaxNesting)
      return error(tok, llvm::formatv("the expression nests more than {0} "
                                      "levels deep (parentheses, unary "
                                      "operators, indices, min/max)",
                                      kMaxNesting));
    ++nesting;
    llvm::scope_exit leave([&] { --nesting; });
    if (tok.kind != Tok::Bang && tok.kind != Tok::Minus &&
        tok.kind != Tok::Plus)
      return parsePrimary();
    Token op = tok;
    advance();
    Expected<NodePtr> operand = parseUnary();
    if (!operand)
      return operand;
    if (op.kind == Tok::Bang) {
      if (Error e = checkCondition(**operand, op))
        return std::move(e);
      return make(Node::Not, Type::Bool, std::move(*operand));
    }
    if (Error e = checkNumber(**operand, op))
      return std::move(e);
    if (op.kind == Tok::Plus)
      return operand;
    Type type = (*operand)->type == Type::Real ? Type::Real : Type::Int;
    return make(Node::Neg, type, std::move(*operand));
  }

  Expected<NodePtr> parsePrimary() {
    Token start = tok;
    switch (tok.kind) {
    case Tok::Int: {
      auto node = std::make_unique<Node>(Node::IntLit, Type::Int);
      node->intValue = tok.intValue;
      advance();
      return node;
    }
    case Tok::Real: {
      auto node = std::make_unique<Node>(Node::RealLit, Type::Real);
      node->realValue = tok.realValue;
      advance();
      return node;
    }
    case Tok::String: {
      auto node = std::make_unique<Node>(Node::StrLit, Type::String);
      node->stringValue = tok.stringValue;
      advance();
      return node;
    }
    case Tok::LParen: {
      advance();
      Expected<NodePtr> inner = parseOr();
      if (!inner)
        return inner;
      if (tok.kind != Tok::RParen)
        return error(tok, llvm::formatv("expected ')' to close the '(' at "
                                        "column {0}",
                                        start.offset + 1));
      advance();
      return inner;
    }
    case Tok::Ident:
      return parseName();
    default:
      return expectedExpression();
    }
  }

  Expected<NodePtr> parseName() {
    Token name = tok;
    StringRef id = spelling(name);
    advance();
    if (id == "true" || id == "false") {
      auto node = std::make_unique<Node>(Node::BoolLit, Type::Bool);
      node->intValue = id == "true";
      return node;
    }
    if (tok.kind == Tok::LParen) {
      if (id != "min" && id != "max")
        return error(name, llvm::formatv("unknown function '{0}' (known: min, "
                                         "max)",
                                         id));
      return parseMinMax(name, id == "min" ? Node::Min : Node::Max);
    }
    std::optional<size_t> index = space.indexOf(id);
    if (!index)
      return error(name, llvm::formatv("unknown parameter '{0}'", id));
    parameters.insert(*index);
    Type type = typeOfParameter(space[*index]);
    if (tok.kind == Tok::LBracket) {
      if (type != Type::Perm)
        return error(tok, llvm::formatv("'{0}' is {1}; only permutations can "
                                        "be indexed",
                                        id, describe(type)));
      return parseIndex(*index);
    }
    if (type == Type::Perm)
      return error(name, llvm::formatv("permutation '{0}' must be indexed, as "
                                       "in {0}[0]",
                                       id));
    auto node = std::make_unique<Node>(Node::Param, type);
    node->param = *index;
    return node;
  }

  Expected<NodePtr> parseIndex(size_t param) {
    advance(); // '['
    Token start = tok;
    Expected<NodePtr> index = parseOr();
    if (!index)
      return index;
    if (!isIntLike((*index)->type))
      return error(start, llvm::formatv("a permutation index must be an "
                                        "integer, got {0}",
                                        describe((*index)->type)));
    int64_t size = space[param].permutationSize;
    if ((*index)->kind == Node::IntLit &&
        ((*index)->intValue < 0 || (*index)->intValue >= size))
      return error(start,
                   llvm::formatv("index {0} is out of range for "
                                 "permutation '{1}' of size {2}",
                                 (*index)->intValue, space[param].name, size));
    if (tok.kind != Tok::RBracket)
      return error(tok, "expected ']'");
    advance();
    auto node = make(Node::Index, Type::Int, std::move(*index));
    node->param = param;
    return node;
  }

  Expected<NodePtr> parseMinMax(const Token &name, Node::Kind kind) {
    advance(); // '('
    auto node = std::make_unique<Node>(kind, Type::Int);
    while (true) {
      Token start = tok;
      Expected<NodePtr> argument = parseOr();
      if (!argument)
        return argument;
      if (!isNumeric((*argument)->type))
        return error(start,
                     llvm::formatv("{0} needs numbers, got {1}", spelling(name),
                                   describe((*argument)->type)));
      if ((*argument)->type == Type::Real)
        node->type = Type::Real;
      node->depth = std::max(node->depth, (*argument)->depth + 1);
      node->operands.push_back(std::move(*argument));
      if (tok.kind == Tok::Comma) {
        advance();
        continue;
      }
      if (tok.kind != Tok::RParen)
        return error(tok, llvm::formatv("expected ',' or ')' in {0}(...)",
                                        spelling(name)));
      if (node->operands.size() < 2)
        return error(tok, llvm::formatv("{0} needs at least two arguments",
                                        spelling(name)));
      advance();
      return node;
    }
  }

  StringRef text;
  const Space &space;
  Lexer lexer;
  Token tok;
  std::set<size_t> parameters;
  /// Recursion depth of parseUnary.
  unsigned nesting = 0;
  /// Where the tree first grew deeper than kMaxDepth.
  std::optional<size_t> tooDeepAt;
};

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

/// A runtime value: integers and booleans in `i`, reals in `d`.
struct Value {
  Type type;
  int64_t i = 0;
  double d = 0;
  const std::string *s = nullptr;

  static Value integer(int64_t v) { return {Type::Int, v}; }
  static Value boolean(bool v) { return {Type::Bool, v}; }
  static Value real(double v) { return {Type::Real, 0, v}; }
  double number() const { return type == Type::Real ? d : double(i); }
  bool truth() const { return type == Type::Real ? d != 0 : i != 0; }
};

/// Evaluates nodes, reading parameter values through `Lookup` (index ->
/// const ParamValue *, null when missing). nullopt means the constraint is
/// false: a missing value, a type mismatch, a division by zero, an integer
/// overflow or a permutation index out of range.
template <typename Lookup> class Evaluator {
public:
  explicit Evaluator(Lookup lookup) : lookup(lookup) {}

  std::optional<Value> eval(const Node &node) const {
    switch (node.kind) {
    case Node::IntLit:
      return Value::integer(node.intValue);
    case Node::RealLit:
      return Value::real(node.realValue);
    case Node::BoolLit:
      return Value::boolean(node.intValue != 0);
    case Node::StrLit:
      return Value{Type::String, 0, 0, &node.stringValue};
    case Node::Param:
      return readParameter(node);
    case Node::Index:
      return readElement(node);
    case Node::Neg: {
      std::optional<Value> v = eval(*node.operands[0]);
      if (!v)
        return std::nullopt;
      if (v->type == Type::Real)
        return Value::real(-v->d);
      if (v->i == INT64_MIN)
        return std::nullopt;
      return Value::integer(-v->i);
    }
    case Node::Not: {
      std::optional<Value> v = eval(*node.operands[0]);
      if (!v)
        return std::nullopt;
      return Value::boolean(!v->truth());
    }
    case Node::And:
    case Node::Or: {
      std::optional<Value> lhs = eval(*node.operands[0]);
      if (!lhs)
        return std::nullopt;
      bool isAnd = node.kind == Node::And;
      if (lhs->truth() != isAnd) // false && ..., true || ...
        return Value::boolean(!isAnd);
      std::optional<Value> rhs = eval(*node.operands[1]);
      if (!rhs)
        return std::nullopt;
      return Value::boolean(rhs->truth());
    }
    case Node::Add:
    case Node::Sub:
    case Node::Mul:
    case Node::Div:
    case Node::Mod:
      return arithmetic(node);
    case Node::Eq:
    case Node::Ne:
    case Node::Lt:
    case Node::Le:
    case Node::Gt:
    case Node::Ge:
      return compare(node);
    case Node::Min:
    case Node::Max:
      return minMax(node);
    }
    return std::nullopt;
  }

private:
  std::optional<Value> readParameter(const Node &node) const {
    const ParamValue *v = lookup(node.param);
    if (!v)
      return std::nullopt;
    switch (node.type) {
    case Type::Int:
      if (v->isInteger())
        return Value::integer(v->getInteger());
      return std::nullopt;
    case Type::Real:
      if (v->isReal())
        return Value::real(v->getReal());
      return std::nullopt;
    case Type::Bool:
      if (v->isBoolean())
        return Value::boolean(v->getBoolean());
      return std::nullopt;
    case Type::String:
      if (v->isString())
        return Value{Type::String, 0, 0, &v->getString()};
      return std::nullopt;
    case Type::Perm:
      return std::nullopt;
    }
    return std::nullopt;
  }

  std::optional<Value> readElement(const Node &node) const {
    const ParamValue *v = lookup(node.param);
    if (!v || !v->isPermutation())
      return std::nullopt;
    std::optional<Value> index = eval(*node.operands[0]);
    if (!index)
      return std::nullopt;
    const ParamValue::Permutation &p = v->getPermutation();
    if (index->i < 0 || uint64_t(index->i) >= p.size())
      return std::nullopt;
    return Value::integer(p[index->i]);
  }

  std::optional<Value> arithmetic(const Node &node) const {
    std::optional<Value> lhs = eval(*node.operands[0]);
    if (!lhs)
      return std::nullopt;
    std::optional<Value> rhs = eval(*node.operands[1]);
    if (!rhs)
      return std::nullopt;
    if (node.type == Type::Int) {
      int64_t a = lhs->i, b = rhs->i, r = 0;
      switch (node.kind) {
      case Node::Add:
        if (__builtin_add_overflow(a, b, &r))
          return std::nullopt;
        return Value::integer(r);
      case Node::Sub:
        if (__builtin_sub_overflow(a, b, &r))
          return std::nullopt;
        return Value::integer(r);
      case Node::Mul:
        if (__builtin_mul_overflow(a, b, &r))
          return std::nullopt;
        return Value::integer(r);
      case Node::Div:
      case Node::Mod:
        if (b == 0 || (a == INT64_MIN && b == -1))
          return std::nullopt;
        return Value::integer(node.kind == Node::Div ? a / b : a % b);
      default:
        return std::nullopt;
      }
    }
    double a = lhs->number(), b = rhs->number();
    switch (node.kind) {
    case Node::Add:
      return Value::real(a + b);
    case Node::Sub:
      return Value::real(a - b);
    case Node::Mul:
      return Value::real(a * b);
    case Node::Div:
      if (b == 0)
        return std::nullopt;
      return Value::real(a / b);
    case Node::Mod:
      if (b == 0)
        return std::nullopt;
      return Value::real(std::fmod(a, b));
    default:
      return std::nullopt;
    }
  }

  std::optional<Value> compare(const Node &node) const {
    std::optional<Value> lhs = eval(*node.operands[0]);
    if (!lhs)
      return std::nullopt;
    std::optional<Value> rhs = eval(*node.operands[1]);
    if (!rhs)
      return std::nullopt;
    int order; // <0, 0, >0
    if (lhs->type == Type::String) {
      int c = lhs->s->compare(*rhs->s);
      order = c < 0 ? -1 : c > 0;
    } else if (isIntLike(lhs->type) && isIntLike(rhs->type)) {
      order = lhs->i < rhs->i ? -1 : lhs->i > rhs->i;
    } else {
      double a = lhs->number(), b = rhs->number();
      if (std::isnan(a) || std::isnan(b))
        return Value::boolean(node.kind == Node::Ne);
      order = a < b ? -1 : a > b;
    }
    switch (node.kind) {
    case Node::Eq:
      return Value::boolean(order == 0);
    case Node::Ne:
      return Value::boolean(order != 0);
    case Node::Lt:
      return Value::boolean(order < 0);
    case Node::Le:
      return Value::boolean(order <= 0);
    case Node::Gt:
      return Value::boolean(order > 0);
    case Node::Ge:
      return Value::boolean(order >= 0);
    default:
      return std::nullopt;
    }
  }

  std::optional<Value> minMax(const Node &node) const {
    bool isMin = node.kind == Node::Min;
    std::optional<Value> best;
    for (const NodePtr &operand : node.operands) {
      std::optional<Value> v = eval(*operand);
      if (!v)
        return std::nullopt;
      if (node.type == Type::Int) {
        if (!best || (isMin ? v->i < best->i : v->i > best->i))
          best = Value::integer(v->i);
      } else {
        double d = v->number();
        if (!best || (isMin ? d < best->d : d > best->d))
          best = Value::real(d);
      }
    }
    return best;
  }

  Lookup lookup;
};

template <typename Lookup> bool evaluateRoot(const Node *root, Lookup lookup) {
  std::optional<Value> result = Evaluator<Lookup>(lookup).eval(*root);
  return result && result->truth();
}
} // namespace

//===----------------------------------------------------------------------===//
// Constraint
//===----------------------------------------------------------------------===//

Expected<Constraint> Constraint::parse(StringRef text, const Space &space) {
  Parser parser(text, space);
  Expected<NodePtr> root = parser.parse();
  if (!root)
    return root.takeError();
  Constraint constraint;
  constraint.text = text.str();
  constraint.parameters = parser.takeParameters();
  constraint.root = std::shared_ptr<const Node>(std::move(*root));
  return constraint;
}

bool Constraint::evaluate(const Config &config) const {
  return evaluate(config.getValues());
}

bool Constraint::evaluate(const std::vector<ParamValue> &values) const {
  return evaluateRoot(root.get(), [&](size_t i) -> const ParamValue * {
    return i < values.size() ? &values[i] : nullptr;
  });
}

bool Constraint::evaluate(llvm::ArrayRef<const ParamValue *> values) const {
  return evaluateRoot(root.get(), [&](size_t i) -> const ParamValue * {
    return i < values.size() ? values[i] : nullptr;
  });
}

/// Adds the parameters `node` reads to `params`.
static void collectParameters(const Node &node, std::set<size_t> &params) {
  if (node.kind == Node::Param || node.kind == Node::Index)
    params.insert(node.param);
  for (const NodePtr &operand : node.operands)
    collectParameters(*operand, params);
}

std::vector<Constraint> Constraint::conjuncts() const {
  std::vector<Constraint> result;
  std::vector<const Node *> stack = {root.get()};
  while (!stack.empty()) {
    const Node *node = stack.back();
    stack.pop_back();
    if (node->kind == Node::And) {
      // Right first so that conjuncts come out left to right.
      stack.push_back(node->operands[1].get());
      stack.push_back(node->operands[0].get());
      continue;
    }
    Constraint part;
    part.text = text;
    std::set<size_t> params;
    collectParameters(*node, params);
    part.parameters.assign(params.begin(), params.end());
    // Shares ownership of the whole tree, points at the operand.
    part.root = std::shared_ptr<const Node>(root, node);
    result.push_back(std::move(part));
  }
  return result;
}
