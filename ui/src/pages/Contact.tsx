import { Clock, Mail } from 'lucide-react';
import { useState } from 'react';

import { ApiFailure, api, unwrap } from '../api/client';
import { Button } from '../components/ui/Button';
import { Input, TextArea } from '../components/ui/Input';
import { useToast } from '../components/ui/toast-context';
import { useSite } from '../hooks/useSite';
import { useSubmit } from '../hooks/useSubmit';
import { validateContact, type ContactValues } from '../lib/validation';

export const SUPPORT_HOURS = [
  ['Monday - Friday', '9:00 AM - 6:00 PM'],
  ['Saturday', '10:00 AM - 3:00 PM'],
  ['Sunday', 'Closed'],
] as const;

const empty: ContactValues = { name: '', email: '', message: '' };

export default function Contact() {
  const { toast } = useToast();
  const { data: site } = useSite();
  const [values, setValues] = useState<ContactValues>(empty);
  const submit = useSubmit(
    (signal) => unwrap(api.POST('/contact', { body: values, signal }), 'Error sending message'),
    {
      failureTitle: 'Error sending message',
      check: () => {
        const found = validateContact(values);
        return Object.keys(found).length > 0 ? { fields: found } : null;
      },
      onSuccess: () => {
        toast({
          variant: 'success',
          title: 'Message sent',
          description: "Thanks for getting in touch. We'll get back to you soon.",
        });
        setValues(empty);
      },
      onFailure: (err, { setFieldErrors }) => {
        if (err instanceof ApiFailure && err.status === 400 && err.field && err.field in empty) {
          setFieldErrors({ [err.field]: err.message });
          return true;
        }
        // Too many messages: the server's own title and message.
        if (err instanceof ApiFailure && err.status === 429) return false;
        toast({ title: 'Error sending message', description: 'Please try again later.' });
        return true;
      },
    },
  );
  const errors = submit.fieldErrors;

  const set = (field: keyof ContactValues) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    submit.clearFieldError(field);
  };

  return (
    <section className="mx-auto grid max-w-5xl gap-10 px-4 py-12 md:grid-cols-[3fr_2fr]">
      <div>
        <h1 className="text-3xl font-bold md:text-4xl">Contact Us</h1>
        <p className="mt-2 text-base-content/80">
          Questions, ideas or problems? Send a message to the people who run this Highchair server.
        </p>
        <form className="mt-8 space-y-4" onSubmit={submit.onSubmit} noValidate>
          <Input
            label="Name"
            error={errors.name}
            autoComplete="name"
            value={values.name}
            onChange={(e) => set('name')(e.target.value)}
          />
          <Input
            label="Email"
            error={errors.email}
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(e) => set('email')(e.target.value)}
          />
          <TextArea
            label="Message"
            error={errors.message}
            className="min-h-36"
            value={values.message}
            onChange={(e) => set('message')(e.target.value)}
          />
          <Button
            type="submit"
            className="w-full sm:w-auto"
            busy={submit.busy}
            busyLabel="Sending..."
          >
            Send Message
          </Button>
        </form>
      </div>

      <aside className="space-y-6">
        <div className="card bg-base-200">
          <div className="card-body">
            <h2 className="card-title">
              <Mail aria-hidden size={20} /> Email
            </h2>
            {site?.contactEmail ? (
              <a className="link link-primary break-all" href={`mailto:${site.contactEmail}`}>
                {site.contactEmail}
              </a>
            ) : (
              <p className="text-base-content/80">
                Messages sent with this form go straight to the person who runs this server.
              </p>
            )}
          </div>
        </div>
        <div className="card bg-base-200">
          <div className="card-body">
            <h2 className="card-title">
              <Clock aria-hidden size={20} /> Support hours
            </h2>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
              {SUPPORT_HOURS.map(([day, hours]) => (
                <div key={day} className="contents">
                  <dt className="font-medium">{day}</dt>
                  <dd>{hours}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      </aside>
    </section>
  );
}
