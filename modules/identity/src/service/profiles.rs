//! What the identity service says of members' public profiles: bylines, contributors'
//! pages, and the profile a member edits in their dashboard.

use std::collections::HashMap;

use super::{IdentityError, IdentityService};
use crate::model::Role;
use crate::profiles::{
    checked_bio, checked_photo, Byline, Contributor, ProfileChange, ProfileSettings, Shown,
};

impl IdentityService {
    /// Display names of the given users (unknown ids are left out).
    pub async fn names(&self, ids: &[String]) -> Result<HashMap<String, String>, IdentityError> {
        Ok(self.store.names(ids).await?.into_iter().collect())
    }

    /// How bylines name the members `ids`, with their pages' addresses (made on first use, so
    /// every author has one). Unknown ids are left out.
    pub async fn bylines(&self, ids: &[String]) -> Result<HashMap<String, Byline>, IdentityError> {
        let names = self.store.names(ids).await?;
        let mut profiles = self.profiles.many(ids).await?;
        let mut bylines = HashMap::with_capacity(names.len());
        for (id, name) in names {
            let profile = match profiles.remove(&id) {
                Some(row) => Some(row.shown(&name)),
                None => self.profiles.ensure(&id, &name, self.clock.now()).await?,
            };
            let byline = match profile {
                Some(p) => Byline {
                    name: p.shown_name,
                    slug: Some(p.slug),
                },
                None => Byline {
                    name: crate::profiles::shown_name(&name, false),
                    slug: None,
                },
            };
            bylines.insert(id, byline);
        }
        Ok(bylines)
    }

    /// The contributor whose page is `/author/{slug}`: any member with a profile but an
    /// educator (whether they have published anything is content's to say).
    pub async fn contributor(&self, slug: &str) -> Result<Option<Contributor>, IdentityError> {
        let Some(row) = self.profiles.by_slug(slug).await? else {
            return Ok(None);
        };
        let Some(user) = self.store.user(&row.user_id).await? else {
            return Ok(None);
        };
        let Some(role) = Role::parse(&user.role).filter(|r| *r != Role::Educator) else {
            return Ok(None);
        };
        let profile = row.shown(&user.name);
        Ok(Some(Contributor {
            user_id: profile.user_id,
            slug: profile.slug,
            name: profile.shown_name,
            bio: profile.bio,
            photo: profile.photo,
            role,
        }))
    }

    /// Member `id`'s profile as their dashboard edits it (made on first use). Educators have
    /// none: `NotFound`, as for an unknown member.
    pub async fn profile_settings(&self, id: &str) -> Result<ProfileSettings, IdentityError> {
        let user = self
            .store
            .user(id)
            .await?
            .filter(|u| Role::parse(&u.role).is_some_and(|r| r != Role::Educator))
            .ok_or(IdentityError::NotFound)?;
        let profile = self
            .profiles
            .ensure(id, &user.name, self.clock.now())
            .await?
            .ok_or_else(|| {
                IdentityError::Invalid("No free address is left for this name.".into())
            })?;
        Ok(ProfileSettings {
            slug: profile.slug,
            short_name: crate::profiles::shown_name(&user.name, false),
            full_name: user.name,
            shown_name: profile.shown_name,
            full_name_shown: profile.full_name_shown,
            bio: profile.bio,
            photo: profile.photo,
        })
    }

    /// Changes member `id`'s profile; the answer is the profile as now shown.
    pub async fn set_profile(
        &self,
        id: &str,
        change: ProfileChange,
    ) -> Result<ProfileSettings, IdentityError> {
        let bio =
            checked_bio(&change.bio).map_err(|f| IdentityError::Invalid(f.message().into()))?;
        let photo =
            checked_photo(change.photo.as_deref()).map_err(|m| IdentityError::Invalid(m.into()))?;
        // Made first when missing (and refused for an educator or an unknown member).
        self.profile_settings(id).await?;
        let shown = Shown {
            full_name_shown: change.full_name_shown,
            bio,
            photo,
        };
        self.profiles.update(id, &shown, self.clock.now()).await?;
        self.profile_settings(id).await
    }
}
