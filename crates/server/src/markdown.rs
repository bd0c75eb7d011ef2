//! A small Markdown to HTML renderer for the rules page: headings, paragraphs,
//! lists, tables, code blocks, block quotes, `code`, **bold**, *italic*, [links](x).

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn inline(s: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut bold = false;
    let mut ital = false;
    while i < chars.len() {
        let c = chars[i];
        if c == '`' {
            if let Some(j) = chars[i + 1..].iter().position(|x| *x == '`') {
                let code: String = chars[i + 1..i + 1 + j].iter().collect();
                out.push_str(&format!("<code>{}</code>", esc(&code)));
                i += j + 2;
                continue;
            }
        }
        if c == '*' && chars.get(i + 1) == Some(&'*') {
            out.push_str(if bold { "</strong>" } else { "<strong>" });
            bold = !bold;
            i += 2;
            continue;
        }
        if (c == '*' || c == '_') && !(c == '_' && i > 0 && chars[i - 1].is_alphanumeric()) {
            let closes = ital;
            let opens = !ital && chars.get(i + 1).is_some_and(|x| !x.is_whitespace());
            if closes || opens {
                out.push_str(if ital { "</em>" } else { "<em>" });
                ital = !ital;
                i += 1;
                continue;
            }
        }
        if c == '[' {
            let rest: String = chars[i..].iter().collect();
            if let Some(close) = rest.find("](") {
                if let Some(end) = rest[close..].find(')') {
                    let text = &rest[1..close];
                    let href = &rest[close + 2..close + end];
                    out.push_str(&format!("<a href=\"{}\">{}</a>", esc(href), inline(text)));
                    i += rest[..close + end + 1].chars().count();
                    continue;
                }
            }
        }
        out.push_str(&esc(&c.to_string()));
        i += 1;
    }
    if ital {
        out.push_str("</em>");
    }
    if bold {
        out.push_str("</strong>");
    }
    out
}

fn cells(line: &str) -> Vec<String> {
    let t = line.trim().trim_start_matches('|').trim_end_matches('|');
    t.split('|').map(|c| c.trim().to_string()).collect()
}

/// Renders Markdown as HTML.
pub fn to_html(md: &str) -> String {
    let lines: Vec<&str> = md.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut para: Vec<String> = Vec::new();
    let flush = |para: &mut Vec<String>, out: &mut String| {
        if !para.is_empty() {
            out.push_str(&format!("<p>{}</p>\n", inline(&para.join(" "))));
            para.clear();
        }
    };
    while i < lines.len() {
        let line = lines[i];
        let t = line.trim();
        if t.starts_with("```") {
            flush(&mut para, &mut out);
            let mut code = String::new();
            i += 1;
            while i < lines.len() && !lines[i].trim().starts_with("```") {
                code.push_str(lines[i]);
                code.push('\n');
                i += 1;
            }
            out.push_str(&format!("<pre><code>{}</code></pre>\n", esc(&code)));
            i += 1;
            continue;
        }
        if t.is_empty() {
            flush(&mut para, &mut out);
            i += 1;
            continue;
        }
        if t.len() >= 3 && (t.chars().all(|c| c == '-') || t.chars().all(|c| c == '*')) {
            flush(&mut para, &mut out);
            out.push_str("<hr>\n");
            i += 1;
            continue;
        }
        if let Some(h) = t.strip_prefix('#') {
            flush(&mut para, &mut out);
            let level = 1 + h.chars().take_while(|c| *c == '#').count();
            let text = h.trim_start_matches('#').trim();
            let id: String = text
                .to_lowercase()
                .chars()
                .map(|c| if c.is_alphanumeric() { c } else { '-' })
                .collect();
            out.push_str(&format!(
                "<h{l} id=\"{id}\">{}</h{l}>\n",
                inline(text),
                l = level.min(6)
            ));
            i += 1;
            continue;
        }
        if t.starts_with('|') && i + 1 < lines.len() && lines[i + 1].trim().starts_with("|-")
            || t.starts_with('|') && i + 1 < lines.len() && lines[i + 1].trim().starts_with("| -")
            || t.starts_with('|') && i + 1 < lines.len() && lines[i + 1].trim().starts_with("|:")
        {
            flush(&mut para, &mut out);
            out.push_str("<div class=\"table\"><table><thead><tr>");
            for c in cells(t) {
                out.push_str(&format!("<th>{}</th>", inline(&c)));
            }
            out.push_str("</tr></thead><tbody>\n");
            i += 2;
            while i < lines.len() && lines[i].trim().starts_with('|') {
                out.push_str("<tr>");
                for c in cells(lines[i]) {
                    out.push_str(&format!("<td>{}</td>", inline(&c)));
                }
                out.push_str("</tr>\n");
                i += 1;
            }
            out.push_str("</tbody></table></div>\n");
            continue;
        }
        let bullet = |s: &str| -> Option<(bool, String)> {
            let s = s.trim_start();
            if let Some(r) = s.strip_prefix("- ").or_else(|| s.strip_prefix("* ")) {
                return Some((false, r.to_string()));
            }
            let d: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
            if !d.is_empty() {
                if let Some(r) = s[d.len()..].strip_prefix(". ") {
                    return Some((true, r.to_string()));
                }
            }
            None
        };
        if let Some((ordered, _)) = bullet(line) {
            flush(&mut para, &mut out);
            let tag = if ordered { "ol" } else { "ul" };
            out.push_str(&format!("<{tag}>\n"));
            let mut item: Option<String> = None;
            while i < lines.len() && !lines[i].trim().is_empty() {
                if let Some((_, text)) = bullet(lines[i]) {
                    if let Some(it) = item.take() {
                        out.push_str(&format!("<li>{}</li>\n", inline(&it)));
                    }
                    item = Some(text);
                } else if let Some(it) = item.as_mut() {
                    it.push(' ');
                    it.push_str(lines[i].trim());
                }
                i += 1;
            }
            if let Some(it) = item {
                out.push_str(&format!("<li>{}</li>\n", inline(&it)));
            }
            out.push_str(&format!("</{tag}>\n"));
            continue;
        }
        if let Some(q) = t.strip_prefix('>') {
            flush(&mut para, &mut out);
            out.push_str(&format!("<blockquote>{}</blockquote>\n", inline(q.trim())));
            i += 1;
            continue;
        }
        para.push(t.to_string());
        i += 1;
    }
    flush(&mut para, &mut out);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn renders_the_basics() {
        let h = super::to_html(
            "# Title\n\nSome *it* and **b** `c<`.\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n",
        );
        assert!(h.contains("<h1 id=\"title\">Title</h1>"));
        assert!(h.contains("<em>it</em>"));
        assert!(h.contains("<strong>b</strong>"));
        assert!(h.contains("<code>c&lt;</code>"));
        assert!(h.contains("<li>a</li>"));
        assert!(h.contains("<td>1</td>"));
    }
}
