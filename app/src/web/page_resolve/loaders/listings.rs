//! The loaders of the pages that list articles: home, the listing and search, a category's
//! page and a contributor's page.

use content::ListQuery;
use poem::http::StatusCode;

use super::super::{raw_json, ListQueryData, PageResolver, Shown, Visit};
use super::Loaded;
use crate::public_pages::public_page;
use crate::ssr::Head;
use crate::web::feed::{author_feed_path, category_feed_path};
use crate::web::structured;

impl PageResolver {
    pub(in crate::web::page_resolve) async fn home(&self, url: &str, visit: Visit<'_>) -> Loaded {
        let home = self.content.list_json(&ListQuery::home()).await?;
        let raw = raw_json(&home);
        let page = public_page("/");
        let head = Head {
            title: format!(
                "{} | {}",
                self.renderer.site_name(),
                page.map_or("", |p| p.title)
            ),
            description: page.map_or("", |p| p.description).into(),
            path: "/".into(),
            json_ld: vec![
                structured::organization(self.site_url(), self.renderer.site_name()),
                structured::website(self.site_url(), self.renderer.site_name()),
            ],
            ..Head::default()
        };
        let shown = Shown::Home {
            home: raw.as_deref(),
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    pub(in crate::web::page_resolve) async fn articles(
        &self,
        url: &str,
        query: &str,
        visit: Visit<'_>,
    ) -> Loaded {
        let q = ListQuery::from_page_query(query);
        let list = self.content.list_json(&q).await?;
        let raw = raw_json(&list);
        let articles = public_page("/articles");
        let head = Head {
            title: self.title(articles.map_or("", |p| p.title)),
            description: articles.map_or("", |p| p.description).into(),
            path: "/articles".into(),
            json_ld: vec![structured::breadcrumbs(
                self.site_url(),
                &[("Articles", "/articles")],
            )],
            // A reader looking at a category can follow it in a feed reader.
            feeds: q
                .categories
                .iter()
                .map(|c| (c.as_str().to_string(), category_feed_path(*c)))
                .collect(),
            ..Head::default()
        };
        let shown = Shown::Articles {
            list: raw.as_deref(),
            list_query: ListQueryData {
                q: &q.q,
                categories: q.categories.iter().map(|c| c.as_str()).collect(),
                limit: q.limit,
                newest: !q.q.is_empty() && q.sort == content::Sort::Newest,
            },
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    /// A category's page: its pieces, newest first, growing by a page with `?limit=`.
    pub(in crate::web::page_resolve) async fn category(
        &self,
        category: content::Category,
        url: &str,
        query: &str,
        visit: Visit<'_>,
    ) -> Loaded {
        let q = ListQuery::category(category, ListQuery::from_page_query(query).limit);
        let list = self.content.list_json(&q).await?;
        let raw = raw_json(&list);
        let path = category.page_path();
        let name = category.as_str();
        let head = Head {
            title: self.title(name),
            description: category.description().into(),
            path: path.clone(),
            json_ld: vec![
                structured::collection_page(
                    self.site_url(),
                    name,
                    category.description(),
                    &path,
                    &structured::listed(&list),
                ),
                structured::breadcrumbs(
                    self.site_url(),
                    &[("Articles", "/articles"), (name, &path)],
                ),
            ],
            feeds: vec![(name.to_string(), category_feed_path(category))],
            ..Head::default()
        };
        let shown = Shown::Category {
            list: raw.as_deref(),
            list_query: ListQueryData {
                q: "",
                categories: vec![name],
                limit: q.limit,
                newest: false,
            },
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }

    /// A contributor's page: who they are, their pieces newest first (growing with
    /// `?limit=`). Not found for a contributor with nothing published.
    pub(in crate::web::page_resolve) async fn author(
        &self,
        path: &str,
        slug: &str,
        url: &str,
        query: &str,
        visit: Visit<'_>,
    ) -> Loaded {
        let Some((id, who)) = self.content.author(slug).await? else {
            return Ok(self.not_found(path, url, visit).await);
        };
        let q = ListQuery::by_author(&id, ListQuery::from_page_query(query).limit);
        let list = self.content.list_json(&q).await?;
        let raw = raw_json(&list);
        let page = format!("/author/{}", who.slug);
        let role = who.role.as_str();
        let description = author_description(&who.name, role, self.renderer.site_name(), &who.bio);
        let head = Head {
            title: self.title(&who.name),
            description: description.clone(),
            path: page.clone(),
            og_type: "profile",
            json_ld: vec![
                structured::profile_page(
                    self.site_url(),
                    self.renderer.site_name(),
                    structured::Contributor {
                        name: &who.name,
                        path: &page,
                        role,
                        bio: &who.bio,
                        photo: who.photo.as_deref(),
                    },
                    &structured::listed(&list),
                ),
                structured::breadcrumbs(
                    self.site_url(),
                    &[("Articles", "/articles"), (&who.name, &page)],
                ),
            ],
            feeds: vec![(who.name.clone(), author_feed_path(&who.slug))],
            ..Head::default()
        };
        let shown = Shown::Author {
            author: &who,
            list: raw.as_deref(),
            list_query: ListQueryData {
                q: "",
                categories: Vec::new(),
                limit: q.limit,
                newest: false,
            },
        };
        let json = self.data_json(url, StatusCode::OK, visit, shown);
        Ok(self.render(url, StatusCode::OK, head, json).await)
    }
}

/// What search results and shared links say about a contributor: their bio's first line when
/// they wrote one (cut at a word, about a snippet's length), else who they are.
fn author_description(name: &str, role: &str, site_name: &str, bio: &str) -> String {
    const MAX: usize = 160;
    let first = bio.lines().map(str::trim).find(|l| !l.is_empty());
    let Some(line) = first else {
        return format!("{name}, {role} at {site_name}: their articles, newest first.");
    };
    if line.chars().count() <= MAX {
        return line.to_string();
    }
    let cut: String = line.chars().take(MAX).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.', ' ']))
}

#[cfg(test)]
mod tests {
    use super::author_description;

    #[test]
    fn an_author_is_described_by_their_bio_or_their_role() {
        assert_eq!(
            author_description("Maya O.", "Writer", "The Agora", ""),
            "Maya O., Writer at The Agora: their articles, newest first."
        );
        assert_eq!(
            author_description(
                "Maya O.",
                "Writer",
                "The Agora",
                "\n  I cover the UN.\nAnd more."
            ),
            "I cover the UN."
        );
        let long = "word ".repeat(60);
        let d = author_description("Maya O.", "Writer", "The Agora", &long);
        assert!(d.ends_with("word…") && d.chars().count() <= 161, "{d}");
    }
}
