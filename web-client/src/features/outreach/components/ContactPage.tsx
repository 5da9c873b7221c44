import { PageHero } from "@/components/PageHero";
import { Section } from "@/components/Section";
import { useDocumentTitle } from "@/lib/document-title";
import { COMMUNITY, useSite } from "@/lib/site";
import { ContactForm } from "./ContactForm";
import { PAGE_TITLES } from "@/lib/pages.gen";

export function ContactPage() {
  const { name } = useSite();
  useDocumentTitle(PAGE_TITLES["/contact-us"]);

  const cards = [
    {
      title: "General Inquiries",
      body: (
        <a href={`mailto:${COMMUNITY.generalEmail}`}>
          {COMMUNITY.generalEmail}
        </a>
      ),
    },
    {
      title: "Education",
      body: (
        <a href={`mailto:${COMMUNITY.educationEmail}`}>
          {COMMUNITY.educationEmail}
        </a>
      ),
    },
    { title: "Global Team", body: "Remote-first team across 15+ time zones" },
    { title: "Response Time", body: "We reply within 24-48 hours" },
  ];

  const faq = [
    {
      q: `How can I contribute to ${name}?`,
      a: "Students aged 14-18 from anywhere in the world can apply. Explore the eight contributor roles on our contributors page and submit an application.",
    },
    {
      q: "Are the educational packs suitable for my grade level?",
      a: "Our packs are designed for ages 13-18 and organised by learning level, from middle school to advanced high school classes, with a teacher's guide in each.",
    },
    {
      q: "How often do you publish new content?",
      a: "We publish new articles 5 times per week, with a monthly magazine.",
    },
    {
      q: `Is ${name} politically neutral?`,
      a: "We do not endorse any party or candidate. Our writers hold many different views, and every piece is edited for accuracy, fairness and respectful debate.",
    },
  ];

  return (
    <>
      <PageHero
        title="Get in Touch"
        lead="Questions, ideas, partnerships or feedback — we would love to hear from you."
      />
      <Section id="contact-info">
        <ul className="info-grid">
          {cards.map((card) => (
            <li key={card.title} className="info-card">
              <h2 className="feature-title">{card.title}</h2>
              <p>{card.body}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="message" title="Send Us a Message" tone="muted">
        <ContactForm />
      </Section>
      <Section id="faq" title="Frequently Asked Questions">
        <dl className="faq">
          {faq.map((item) => (
            <div key={item.q} className="faq-item">
              <dt>{item.q}</dt>
              <dd>{item.a}</dd>
            </div>
          ))}
        </dl>
      </Section>
    </>
  );
}
